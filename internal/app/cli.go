package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"

	"parking/internal/fault"
	"parking/internal/web/api/openapi"
)

// Version is set at build time with -ldflags "-X parking/internal/app.Version=…".
var Version = "dev"

const usage = `parking — parking-facility reservation service

Usage:
  parking [serve] [flags]     run the service (the default command)
  parking migrate             apply database migrations and exit
  parking admin create --email E --password P [--name N]
                              create an administrator account
  parking notifications list [--status failed] [--reservation ID] [--limit N]
                              list notifications (newest first)
  parking notifications retry ID | --failed
                              queue failed notifications again
  parking duplicates list     customers and vehicles that share a phone or plate
                              but could not be merged safely (resolve by hand)
  parking occupancy rebuild   recompute the per-day occupancy ledger from the reservations
  parking receipts verify | export
                              check the receipts' VeriFactu chain, or write it as CSV
  parking generate [--reservations N] [--seed S]
                              fill the database with a realistic history (measurements)
  parking openapi             print the API document (the JSON GET /api/openapi.json serves)
  parking version             print the version
  parking help                show this help

Configuration (environment variable, serve flag, default):
`

// command runs one of parking's commands with its arguments.
type command func(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error

// commands are parking's commands by name (usage lists them).
var commands = map[string]command{
	"serve": func(ctx context.Context, args []string, getenv func(string) string, _, stderr io.Writer) error {
		return runServe(ctx, args, getenv, stderr)
	},
	"migrate": func(ctx context.Context, args []string, getenv func(string) string, _, stderr io.Writer) error {
		return runMigrate(ctx, args, getenv, stderr)
	},
	"admin":         runAdmin,
	"notifications": runNotifications,
	"duplicates":    runDuplicates,
	"occupancy":     runOccupancy,
	"receipts":      runReceipts,
	"generate":      runGenerate,
	"openapi": func(_ context.Context, _ []string, _ func(string) string, stdout, _ io.Writer) error {
		_, err := stdout.Write(append(openapi.JSON(), '\n'))
		return err
	},
	"version": func(_ context.Context, _ []string, _ func(string) string, stdout, _ io.Writer) error {
		_, err := fmt.Fprintln(stdout, "parking", versionString())
		return err
	},
	"help": showHelp, "-h": showHelp, "--help": showHelp,
}

// showHelp prints the usage and the settings.
func showHelp(_ context.Context, _ []string, _ func(string) string, stdout, _ io.Writer) error {
	fmt.Fprint(stdout, usage)
	WriteSettings(stdout)
	return nil
}

// Run is the command-line entry point: cmd/parking calls it with the process's
// arguments (without the program name) and environment. It returns the exit code.
func Run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && (len(args[0]) == 0 || args[0][0] != '-') {
		cmd, args = args[0], args[1:]
	}
	run, ok := commands[cmd]
	if !ok {
		fmt.Fprintf(stderr, "parking: unknown command %q\n\n", cmd)
		fmt.Fprint(stderr, usage)
		WriteSettings(stderr)
		return 2
	}
	err := run(ctx, args, getenv, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "parking %s: %v\n", cmd, err)
		return 1
	}
	return 0
}

func versionString() string {
	v := Version
	if info, ok := debug.ReadBuildInfo(); ok {
		v += " (" + info.GoVersion + ")"
	}
	return v
}

// opened reads a command's configuration and opens the service with open (Start
// to serve, Open for a one-off command), with the logger the configuration asks for.
func opened(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer,
	open func(context.Context, Config, *slog.Logger) (*App, error)) (*App, *slog.Logger, error) {
	cfg, err := LoadConfig(args, getenv, stderr)
	if err != nil {
		return nil, nil, err
	}
	log := NewLogger(cfg, stderr)
	a, err := open(ctx, cfg, log)
	return a, log, err
}

func runServe(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	a, _, err := opened(ctx, args, getenv, stderr, Start)
	if err != nil {
		return err
	}
	if testHookServing != nil {
		testHookServing(a.URL)
	}
	return a.Wait(ctx)
}

// testHookServing, when a test sets it, is told the address serve listens on
// (serve --addr 127.0.0.1:0 picks a free port).
var testHookServing func(url string)

func runMigrate(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	a, log, err := opened(ctx, args, getenv, stderr, Open)
	if err != nil {
		return err
	}
	log.Info("database migrated", "database", string(a.Store.Dialect()))
	return a.Store.Close()
}

// runAdmin is `parking admin create --email E --password P [--name N]`; the database
// comes from PARKING_DATABASE_URL (or --database-url).
func runAdmin(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return fmt.Errorf("usage: parking admin create --email E --password P [--name N]")
	}
	fs := flag.NewFlagSet("parking admin create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	email := fs.String("email", "", "administrator email (required)")
	password := fs.String("password", "", "administrator password, at least 8 characters (required)")
	name := fs.String("name", "Administrador", "full name")
	dbURL := fs.String("database-url", "", "database URL (default PARKING_DATABASE_URL or sqlite:parking.db)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *email == "" || *password == "" {
		return fmt.Errorf("--email and --password are required")
	}
	return withCommandApp(ctx, *dbURL, getenv, stderr, func(a *App) error {
		u, err := a.Accounts.CreateAdmin(ctx, *email, *password, *name)
		if err != nil {
			return errors.New(fault.MessageOf(err, err.Error()))
		}
		fmt.Fprintf(stdout, "administrator %s created (id %d)\n", u.Email, u.ID)
		return nil
	})
}

// withCommandApp opens (and migrates) the service's database for a one-off command,
// runs do with it and closes it: the configuration comes from the PARKING_*
// variables, with dbURL, when given, overriding PARKING_DATABASE_URL.
func withCommandApp(ctx context.Context, dbURL string, getenv func(string) string, stderr io.Writer, do func(*App) error) error {
	var args []string
	if dbURL != "" {
		args = []string{"--database-url", dbURL}
	}
	a, _, err := opened(ctx, args, getenv, stderr, Open)
	if err != nil {
		return err
	}
	defer a.Store.Close()
	return do(a)
}
