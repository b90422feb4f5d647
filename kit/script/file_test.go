package script

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/internal/testfile"
)

func TestReadFileNamesAScriptAfterItsFile(t *testing.T) {
	dir := t.TempDir()
	s, err := ReadFile(testfile.Write(t, dir, "mine.jsonl", `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`+"\n"))
	if err != nil || s.Name != "mine" || len(s.Frames) != 1 {
		t.Fatalf("%+v %v", s, err)
	}
	s, err = ReadFile(testfile.Write(t, dir, "other.json", `{"name":"says-so","stream":[{"type":"A"}]}`))
	if err != nil || s.Name != "says-so" {
		t.Fatalf("%+v %v", s, err)
	}
}

// Every refusal starts with the path and says why; a bad line says which.
func TestReadFileRefusesWithPathLineAndReason(t *testing.T) {
	dir := t.TempDir()
	bad := testfile.Write(t, dir, "bad.json", "[\n{\"type\":\"A\"},\n{\"type\":\n]")
	_, err := ReadFile(bad)
	var se *Error
	if !errors.As(err, &se) || se.Line != 4 || !strings.HasPrefix(err.Error(), bad+": line 4, column 1: invalid JSON") {
		t.Errorf("bad JSON: %v", err)
	}

	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(50 << 20) // sparse: the test writes no 50 MiB
	f.Close()
	if _, err := ReadFile(big); err == nil || err.Error() != big+": the file is 50.0 MiB, over the 16 MiB a script may be" {
		t.Errorf("a 50 MiB file: %v", err)
	}

	missing := filepath.Join(dir, "missing.json")
	if _, err := ReadFile(missing); !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), missing+": cannot read it: ") {
		t.Errorf("a missing file: %v", err)
	}
	if _, err := ReadFile(dir); err == nil || err.Error() != dir+": not a regular file" {
		t.Errorf("a directory: %v", err)
	}
}

func TestPathsListsScriptsInNameOrder(t *testing.T) {
	dir := t.TempDir()
	testfile.Write(t, dir, "b.jsonl", "{}")
	testfile.Write(t, dir, "a.json", "{}")
	testfile.Write(t, dir, "notes.txt", "not a script")
	os.Mkdir(filepath.Join(dir, "sub.json"), 0o755) // a directory, whatever its name
	got, err := Paths(dir)
	want := []string{filepath.Join(dir, "a.json"), filepath.Join(dir, "b.jsonl")}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("%v %v", got, err)
	}

	empty, missing := t.TempDir(), filepath.Join(dir, "missing")
	if _, err := Paths(missing); !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), missing+": cannot read it: ") {
		t.Errorf("a missing directory: %v", err)
	}
	for path, says := range map[string]string{
		empty:                        empty + ": no .json or .jsonl script in it",
		filepath.Join(dir, "a.json"): filepath.Join(dir, "a.json") + ": not a directory",
	} {
		if _, err := Paths(path); err == nil || err.Error() != says {
			t.Errorf("%s: %v, want %q", path, err, says)
		}
	}
}
