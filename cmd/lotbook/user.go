package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/google/uuid"
	"golang.org/x/term"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

func userAdd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var e env
	fs := newFlags("user add", &e)
	role := fs.String("role", "", "ops or auditor")
	password := fs.String("password", "", "the user's password (visible in the process list: prefer the prompt or --password-stdin)")
	fromStdin := fs.Bool("password-stdin", false, "read the password from the first line of stdin")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || (*role != events.RoleOps && *role != events.RoleAuditor) {
		return fmt.Errorf("%w: user add needs --role ops|auditor and one ACCOUNT", errUsage)
	}
	if *password != "" && *fromStdin {
		return fmt.Errorf("%w: give --password or --password-stdin, not both", errUsage)
	}
	account := pos[0]
	pw := *password
	switch {
	case *fromStdin:
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("read password: %w", err)
		}
		pw = strings.TrimRight(line, "\r\n")
	case pw == "":
		if pw, err = promptPassword(stderr); err != nil {
			return err
		}
	}
	store, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	svc := commands.New(store, commands.Options{})
	res, err := svc.AddStaff(ctx, commands.Meta{CommandID: uuid.NewString(), Actor: "system"}, account, *role, pw)
	if err != nil {
		var ce *commands.Error
		if errors.As(err, &ce) {
			return fmt.Errorf("user add %s: refused: %s", account, ce.Key)
		}
		return fmt.Errorf("user add %s: %w", account, err)
	}
	fmt.Fprintf(stdout, "%s user %s added (position %d)\n", *role, account, res.Position)
	return nil
}

// promptPassword asks twice on the terminal without echo.
func promptPassword(stderr io.Writer) (string, error) {
	fd := int(os.Stdin.Fd())
	if !term.IsTerminal(fd) {
		return "", errors.New("no terminal to prompt for the password on: give --password-stdin or --password")
	}
	read := func(prompt string) (string, error) {
		fmt.Fprint(stderr, prompt)
		b, err := term.ReadPassword(fd)
		fmt.Fprintln(stderr)
		if err != nil {
			return "", fmt.Errorf("read password: %w", err)
		}
		return string(b), nil
	}
	pw, err := read("Password: ")
	if err != nil {
		return "", err
	}
	again, err := read("Password again: ")
	if err != nil {
		return "", err
	}
	if pw != again {
		return "", errors.New("the two passwords differ")
	}
	return pw, nil
}
