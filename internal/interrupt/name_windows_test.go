package interrupt

import (
	"os"
	"syscall"
	"testing"
)

// Go gives Windows' console events as two signals: Ctrl+C and Ctrl+Break
// as os.Interrupt, the console's closing (and logoff, shutdown) as
// SIGTERM. mcpcli words them as what the person did.
func TestWindowsStopsAreWordedAsTheConsolesEvents(t *testing.T) {
	for _, tc := range []struct {
		sig        os.Signal
		err, named string
	}{
		{os.Interrupt, "the user interrupted mcpcli (Ctrl+C or Ctrl+Break)", "Ctrl+C or Ctrl+Break"},
		{syscall.SIGTERM, "mcpcli's console was closed", "the console's closing"},
	} {
		if got := (Signal{tc.sig}).Error(); got != tc.err {
			t.Errorf("Signal{%v}.Error() = %q, want %q", tc.sig, got, tc.err)
		}
		if got := (Signal{tc.sig}).Name(); got != tc.named {
			t.Errorf("Signal{%v}.Name() = %q, want %q", tc.sig, got, tc.named)
		}
	}
}
