package app

import (
	"context"
	"errors"
	"fmt"
	"io"

	"parking/internal/receipt"
)

const receiptsUsage = `usage:
  parking receipts verify    check the chain of VeriFactu records (fingerprints,
                             links, positions, each receipt's arithmetic)
  parking receipts export    write every record as CSV to standard output`

// runReceipts is the command line's view of the receipts' VeriFactu records
// (docs/receipts.md): the same chain and the same verification as
// GET /admin/verifactu/records, for an operator or an archive job.
func runReceipts(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) != 1 || (args[0] != "verify" && args[0] != "export") {
		return errors.New(receiptsUsage)
	}
	return withCommandApp(ctx, "", getenv, stderr, func(a *App) error {
		chain, err := a.Store.Receipts().ReceiptChain(ctx, 1, 0)
		if err != nil {
			return err
		}
		if args[0] == "export" {
			return receipt.WriteCSV(stdout, chain, a.Config.VerifactuQR)
		}
		if err := receipt.Verify(chain); err != nil {
			return fmt.Errorf("the chain of %d records does not verify: %w", len(chain), err)
		}
		fmt.Fprintf(stdout, "%d records, chain verified\n", len(chain))
		return nil
	})
}
