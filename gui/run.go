// Package gui is the Arbiter console: the Fyne desktop app over package match.
package gui

import (
	"context"
	"fmt"

	"arbiter/cli"
)

// Run opens the console on the database at path and blocks until it closes.
func Run(ctx context.Context, path string, opts cli.Global) error {
	return fmt.Errorf("the console is not built yet: use the command line (arbiter help)")
}
