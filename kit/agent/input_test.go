package agent

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/internal/testfile"
)

// An input file is read as a script is: bounded, a BOM allowed, a JSON
// error placed on its line. Errors start with the path, not a flag.
func TestReadInputFile(t *testing.T) {
	dir := t.TempDir()
	in, warnings, err := ReadInputFile(testfile.Write(t, dir, "bom.json", "\ufeff{\"forwardedProps\":{\"scenario\":\"x\"},\"extra\":1}"))
	if err != nil || in.ThreadID == "" || in.RunID == "" || len(warnings) != 1 {
		t.Fatalf("%+v %v %v", in, warnings, err)
	}

	bad := testfile.Write(t, dir, "bad.json", "{\n  \"threadId\": \"t\",\n  \"runId\": r\n}")
	if _, _, err := ReadInputFile(bad); err == nil || !strings.HasPrefix(err.Error(), bad+": line 3: invalid JSON") {
		t.Errorf("bad JSON: %v", err)
	}
	array := testfile.Write(t, dir, "array.json", "\n[]")
	if _, _, err := ReadInputFile(array); err == nil || err.Error() != array+": line 2: a RunAgentInput is a JSON object" {
		t.Errorf("an array: %v", err)
	}
	missing := filepath.Join(dir, "missing.json")
	if _, _, err := ReadInputFile(missing); !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), missing+": cannot read it: ") {
		t.Errorf("missing: %v", err)
	}
	big := filepath.Join(dir, "big.json")
	if f, err := os.Create(big); err == nil {
		f.Truncate(50 << 20) // sparse
		f.Close()
	}
	if _, _, err := ReadInputFile(big); err == nil || err.Error() != big+": the file is 50.0 MiB, over the 16 MiB a run input may be" {
		t.Errorf("big: %v", err)
	}
	if _, _, err := ReadInputFile(dir); err == nil || err.Error() != dir+": not a regular file" {
		t.Errorf("a directory: %v", err)
	}
}
