package demoserver

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"testing"
)

// logoPNG is written out as bytes; it must still be the 1x1 PNG a
// sampling request carries.
func TestLogoIsTheOnePixelPNG(t *testing.T) {
	img, err := png.Decode(bytes.NewReader(logoPNG))
	if err != nil {
		t.Fatalf("png.Decode(logoPNG): %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1 || b.Dy() != 1 {
		t.Errorf("png.Decode(logoPNG) is %dx%d, want 1x1", b.Dx(), b.Dy())
	}
	const b64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
	if got := base64.StdEncoding.EncodeToString(logoPNG); got != b64 {
		t.Errorf("logoPNG in base64 = %s, want %s", got, b64)
	}
}
