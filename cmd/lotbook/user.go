package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/google/uuid"
	"golang.org/x/term"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// user runs `lotbook user SUBCOMMAND`: staff (ops and auditor) accounts are managed here, on
// the server, and never through the HTTP API.
func user(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: user needs a subcommand: add, disable, enable or password", errUsage)
	}
	switch args[0] {
	case "add":
		return userAdd(ctx, args[1:], stdin, stdout, stderr)
	case "disable":
		return userFlag(ctx, "disable", true, args[1:], stdout)
	case "enable":
		return userFlag(ctx, "enable", false, args[1:], stdout)
	case "password":
		return userPassword(ctx, args[1:], stdin, stdout, stderr)
	}
	return fmt.Errorf("%w: unknown user subcommand %q", errUsage, args[0])
}

// passwordFlags are --password and --password-stdin, shared by add and password.
type passwordFlags struct {
	password  *string
	fromStdin *bool
}

func addPasswordFlags(fs *flag.FlagSet) passwordFlags {
	return passwordFlags{
		password:  fs.String("password", "", "the user's password (visible in the process list: prefer the prompt or --password-stdin)"),
		fromStdin: fs.Bool("password-stdin", false, "read the password from the first line of stdin"),
	}
}

// read takes the password from the flag, stdin or the terminal prompt.
func (p passwordFlags) read(stdin io.Reader, stderr io.Writer) (string, error) {
	switch {
	case *p.password != "" && *p.fromStdin:
		return "", fmt.Errorf("%w: give --password or --password-stdin, not both", errUsage)
	case *p.password != "":
		return *p.password, nil
	case *p.fromStdin:
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("read password: %w", err)
		}
		return strings.TrimRight(line, "\r\n"), nil
	}
	return promptPassword(stderr)
}

// withService opens the event store and runs fn on a command service over it. The server may
// be running: the store serialises appends, and the server projects what fn wrote.
func withService(ctx context.Context, e env, fn func(svc *commands.Service, meta commands.Meta) (commands.Result, error)) (commands.Result, error) {
	store, err := e.openStore(ctx)
	if err != nil {
		return commands.Result{}, err
	}
	defer store.Close()
	return fn(commands.New(store, commands.Options{}), commands.Meta{CommandID: uuid.NewString(), Actor: "system"})
}

// refusal words a command's refusal for the operator.
func refusal(what, account string, err error) error {
	ce, ok := commands.AsError(err)
	switch {
	case !ok:
		return fmt.Errorf("%s %s: %w", what, account, err)
	case ce.Key == commands.KeyAccountNotExist:
		return fmt.Errorf("%s %s: refused: no ops or auditor account of that name (members are managed by ops in the app)", what, account)
	}
	return fmt.Errorf("%s %s: refused: %s", what, account, ce.Key)
}

func userAdd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var e env
	fs := newFlags("user add", &e)
	role := fs.String("role", "", "ops or auditor")
	pw := addPasswordFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || (*role != events.RoleOps && *role != events.RoleAuditor) {
		return fmt.Errorf("%w: user add needs --role ops|auditor and one ACCOUNT", errUsage)
	}
	account := pos[0]
	password, err := pw.read(stdin, stderr)
	if err != nil {
		return err
	}
	res, err := withService(ctx, e, func(svc *commands.Service, meta commands.Meta) (commands.Result, error) {
		return svc.AddStaff(ctx, meta, commands.AddStaff{Account: account, Role: *role, Password: password})
	})
	if err != nil {
		return refusal("user add", account, err)
	}
	fmt.Fprintf(stdout, "%s user %s added (position %d)\n", *role, account, res.Position)
	return nil
}

// userFlag disables or enables a staff account: a disabled user cannot log in, and every
// request of a session already open is refused.
func userFlag(ctx context.Context, verb string, on bool, args []string, stdout io.Writer) error {
	var e env
	fs := newFlags("user "+verb, &e)
	reason := fs.String("reason", "", "why (recorded in the account's history)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || strings.TrimSpace(*reason) == "" {
		return fmt.Errorf("%w: user %s needs one ACCOUNT and --reason", errUsage, verb)
	}
	account := pos[0]
	res, err := withService(ctx, e, func(svc *commands.Service, meta commands.Meta) (commands.Result, error) {
		return svc.SetStaffFlag(ctx, meta, commands.SetFlag{Account: account, Flag: events.FlagDisabled, On: on, Reason: *reason})
	})
	if err != nil {
		return refusal("user "+verb, account, err)
	}
	fmt.Fprintf(stdout, "user %s %sd (position %d)\n", account, verb, res.Position)
	return nil
}

// userPassword sets a new password on a staff account; the user's open sessions end.
func userPassword(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var e env
	fs := newFlags("user password", &e)
	pw := addPasswordFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: user password needs one ACCOUNT", errUsage)
	}
	account := pos[0]
	password, err := pw.read(stdin, stderr)
	if err != nil {
		return err
	}
	res, err := withService(ctx, e, func(svc *commands.Service, meta commands.Meta) (commands.Result, error) {
		return svc.ResetStaffPassword(ctx, meta, commands.StaffPassword{Account: account, Password: password})
	})
	if err != nil {
		return refusal("user password", account, err)
	}
	fmt.Fprintf(stdout, "user %s has a new password; its sessions are closed (position %d)\n", account, res.Position)
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
