//go:build unix

package script

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A named pipe would block the reader until something writes to it: it is
// refused without being opened.
func TestReadFileRefusesAPipeUnopened(t *testing.T) {
	pipe := filepath.Join(t.TempDir(), "pipe.json")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	if _, err := ReadFile(pipe); err == nil || err.Error() != pipe+": not a regular file" {
		t.Errorf("%v", err)
	}
}
