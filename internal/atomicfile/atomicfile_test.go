package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A write that fails leaves what was there, and no temporary file.
func TestAFailedWriteLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "taken")
	os.Mkdir(target, 0o755) // a directory: the rename onto it fails
	os.WriteFile(filepath.Join(target, "inside"), nil, 0o644)
	err := Write(target, []byte("{}"))
	if err == nil || !strings.HasPrefix(err.Error(), target+": ") || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("%v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries: a temporary file was left", len(entries))
	}
	if err := Write(filepath.Join(dir, "new.json"), []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "new.json")); string(b) != "{}\n" {
		t.Errorf("%q", b)
	}
	if info, _ := os.Stat(filepath.Join(dir, "new.json")); info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", info.Mode())
	}
}
