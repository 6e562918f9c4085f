package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lotbook/lotbook/commands"
	fundscmd "github.com/lotbook/lotbook/commands/funds"
)

// The first set-up of a production deployment, on the server: `lotbook user add --role ops`
// makes the first ops user, `lotbook invite create` the first invite code and `lotbook channel
// set` the first deposit channel. They write the same events as the ops console, whose actor is
// "system".

// invite runs `lotbook invite create [CODE]` and `lotbook invite disable CODE --reason R`.
func invite(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: invite needs a subcommand: create or disable", errUsage)
	}
	var e env
	switch args[0] {
	case "create":
		fs := newFlags("invite create", &e)
		pos, err := parse(fs, args[1:])
		if err != nil {
			return err
		}
		if len(pos) > 1 {
			return fmt.Errorf("%w: invite create takes at most one CODE (none for a generated one)", errUsage)
		}
		want := ""
		if len(pos) == 1 {
			want = pos[0]
		}
		var code string
		res, err := withService(ctx, e, func(svc *commands.Service, meta commands.Meta) (r commands.Result, err error) {
			code, r, err = svc.CreateInviteCode(ctx, meta, want)
			return r, err
		})
		if err != nil {
			return refusal("invite create", want, err)
		}
		fmt.Fprintf(stdout, "invite code %s issued (position %d)\n", code, res.Position)
		return nil
	case "disable":
		fs := newFlags("invite disable", &e)
		reason := fs.String("reason", "", "why (shown in the console's history)")
		pos, err := parse(fs, args[1:])
		if err != nil {
			return err
		}
		if len(pos) != 1 || strings.TrimSpace(*reason) == "" {
			return fmt.Errorf("%w: invite disable needs one CODE and --reason", errUsage)
		}
		res, err := withService(ctx, e, func(svc *commands.Service, meta commands.Meta) (commands.Result, error) {
			return svc.DisableInviteCode(ctx, meta, pos[0], *reason)
		})
		if err != nil {
			return refusal("invite disable", pos[0], err)
		}
		fmt.Fprintf(stdout, "invite code %s disabled (position %d)\n", strings.ToUpper(pos[0]), res.Position)
		return nil
	}
	return fmt.Errorf("%w: unknown invite subcommand %q", errUsage, args[0])
}

// channel runs `lotbook channel set ID ...`: defines or redefines a deposit channel.
func channel(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "set" {
		return fmt.Errorf("%w: channel needs the subcommand set", errUsage)
	}
	var e env
	fs := newFlags("channel set", &e)
	in := fundscmd.ChannelInput{}
	fs.StringVar(&in.Name, "name", "", "the name members see (required)")
	fs.StringVar(&in.Currency, "currency", "TWD", "three-letter currency")
	fs.StringVar(&in.Min, "min", "", "smallest deposit (required)")
	fs.StringVar(&in.Max, "max", "", "largest deposit (required)")
	days := fs.String("weekdays", "1,2,3,4,5", "days open, 0 = Sunday, comma separated")
	fs.StringVar(&in.Window.Open, "open", "09:00", "opening time HH:MM")
	fs.StringVar(&in.Window.Close, "close", "17:00", "closing time HH:MM")
	fs.StringVar(&in.Window.TZ, "tz", "Asia/Taipei", "the window's time zone")
	fs.BoolVar(&in.Window.ClosedOnHolidays, "closed-on-holidays", true, "closed on exchange holidays")
	disabled := fs.Bool("disabled", false, "define the channel switched off")
	fs.StringVar(&in.Payee.Bank, "payee-bank", "", "the payee's bank")
	fs.StringVar(&in.Payee.Branch, "payee-branch", "", "the payee's branch")
	fs.StringVar(&in.Payee.Account, "payee-account", "", "the payee's account number")
	fs.StringVar(&in.Payee.Name, "payee-name", "", "the payee account's holder")
	pw := addPasswordFlags(fs)
	noPassword := fs.Bool("no-password", false, "keep the channel's password (none for a new channel) instead of asking for one")
	pos, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 1 || in.Name == "" || in.Min == "" || in.Max == "" {
		return fmt.Errorf("%w: channel set needs one ID, --name, --min and --max", errUsage)
	}
	in.ID, in.Enabled = pos[0], !*disabled
	if in.Window.Weekdays, err = weekdays(*days); err != nil {
		return err
	}
	if !*noPassword {
		if in.Password, err = pw.read(stdin, stderr); err != nil {
			return err
		}
	}
	res, err := withService(ctx, e, func(svc *commands.Service, meta commands.Meta) (commands.Result, error) {
		return fundscmd.New(svc).ConfigureDepositChannel(ctx, meta, in)
	})
	if err != nil {
		return refusal("channel set", in.ID, err)
	}
	fmt.Fprintf(stdout, "deposit channel %s set (position %d)\n", in.ID, res.Position)
	return nil
}

// weekdays parses "1,2,3,4,5".
func weekdays(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		d, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || d < 0 || d > 6 {
			return nil, fmt.Errorf("%w: --weekdays: %q is not a day 0..6", errUsage, f)
		}
		out = append(out, d)
	}
	return out, nil
}
