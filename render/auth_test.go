package render

import (
	"testing"
	"time"

	"github.com/mcpcli/mcpcli/oauth"
)

func TestExpiryText(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.Local)
	for _, tt := range []struct {
		r    oauth.RecordStatus
		want string
	}{
		{oauth.RecordStatus{Expiry: now.Add(59*time.Minute + 40*time.Second), Refreshable: true}, "2026-12-01 12:59:40 (in 1h0m0s); then it is refreshed without asking"},
		{oauth.RecordStatus{Expiry: now.Add(-3 * time.Hour)}, "2026-12-01 09:00:00 (expired 3h0m0s ago); then mcpcli signs in again"},
		{oauth.RecordStatus{Refreshable: true}, "not said by the server; then it is refreshed without asking when the server refuses it"},
	} {
		if got := expiryText(tt.r, now); got != tt.want {
			t.Errorf("expiryText(expiry %v, refreshable %v) = %q, want %q", tt.r.Expiry, tt.r.Refreshable, got, tt.want)
		}
	}
}
