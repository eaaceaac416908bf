package transport

import "testing"

func TestParseSize(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"256MiB", 256 << 20, true},
		{"256mib", 256 << 20, true},
		{"64 KiB", 64 << 10, true},
		{"1MB", 1000000, true},
		{"2G", 2 << 30, true},
		{"1048576", 1 << 20, true},
		{"1024", 1024, true},
		{"1023", 0, false},
		{"17GiB", 0, false},
		{"99999999999999999999", 0, false},
		{"1.5MiB", 0, false},
		{"MiB", 0, false},
		{"-1", 0, false},
		{"12 parsecs", 0, false},
		{"", 0, false},
	} {
		got, err := ParseMessageSize(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseMessageSize(%q) = %d, %v; want %d (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// --max-message-size's value reads a size as ParseMessageSize does, and
// shows it as FormatSize does.
func TestMessageSizeValue(t *testing.T) {
	n := 1 << 20
	v := (*MessageSizeValue)(&n)
	if err := v.Set("64KiB"); err != nil || n != 64<<10 || v.String() != FormatSize(64<<10) || v.Type() != "SIZE" {
		t.Errorf("Set(64KiB) = %v: %d, %q, %q; want 65536 shown as %q", err, n, v.String(), v.Type(), FormatSize(64<<10))
	}
	if err := v.Set("1023"); err == nil || n != 64<<10 {
		t.Errorf("Set(1023) = %v, leaving %d; want an error and 65536 kept", err, n)
	}
}
