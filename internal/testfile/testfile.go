// Package testfile writes the files tests read.
package testfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes content to dir/name and returns its path.
func Write(t testing.TB, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
