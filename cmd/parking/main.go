// Command parking runs the parking-facility reservation service; see parking help.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"parking/internal/app"
)

func main() {
	tuneGC()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := app.Run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
