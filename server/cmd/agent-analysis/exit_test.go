package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agent-analysis/agent-analysis/internal/testfile"
)

// A command line that cannot run exits 2, its error printed once; a
// failed check exits 1, the report having said why.
func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	valid := "../../../kit/check/testdata/scripts/valid.jsonl"
	for _, tt := range []struct {
		args   []string
		code   int
		stderr string // its one line, or "" for none
	}{
		{[]string{"check", valid}, 0, ""},
		{[]string{"check", "../../../kit/check/testdata/scripts/after-finish.json"}, 1, ""},
		{[]string{"check"}, 2, "agent-analysis check: name at least one file or directory, or an agent with -url (see agent-analysis check -h)\n"},
		{[]string{"check", "-nope", valid}, 2, "agent-analysis check: flag provided but not defined: -nope (see agent-analysis check -h)\n"},
		{[]string{"check", filepath.Join(dir, "missing.json")}, 2, "agent-analysis check: " + filepath.Join(dir, "missing.json") + ": no such file or directory (see agent-analysis check -h)\n"},
		{[]string{"check", valid, filepath.Join(dir, "missing.json")}, 2, "no such file or directory"},
		{[]string{"check", valid + "/x"}, 2, "agent-analysis check: " + valid + "/x: not a directory (see agent-analysis check -h)\n"},
		{[]string{"check", "-url", "localhost:8080"}, 2, `agent-analysis check: -url: "localhost:8080" is not an http:// or https:// URL (see agent-analysis check -h)`},
		// A mistyped URL is shown without its secrets, as reports show one.
		{[]string{"check", "-url", "localhost:8080/agui?api_key=SECRET"}, 2, `agent-analysis check: -url: "localhost:8080/agui" is not an http:// or https:// URL (see agent-analysis check -h)` + "\n"},
		{[]string{"proxy", "-upstream", "ftp://user:SECRET@host/agui?key=SECRET"}, 2, `agent-analysis proxy: -upstream: the upstream "ftp://host/agui" is not an http:// or https:// URL (see agent-analysis proxy -h)` + "\n"},
		{[]string{"check", "-url", "http://x", "-input", filepath.Join(dir, "missing.json")}, 2, "no such file or directory"},
		// A header net/http would not send as given is refused, its value unshown.
		{[]string{"check", "-url", "http://x", "-H", "Authorization: Bearer s3\x01cret"}, 2, "agent-analysis check: -H Authorization: a header's value holds no control character (it is not shown) (see agent-analysis check -h)\n"},
		{[]string{"check", "-url", "http://x", "-H", "X-Key: s3\x7fcret"}, 2, "agent-analysis check: -H X-Key: a header's value holds no control character (it is not shown)"},
		{[]string{"check", "-url", "http://x", "-H", "Host: agent s3cret"}, 2, "agent-analysis check: -H Host: a host, with a port or not (it is not shown)"},
		{[]string{"check", "-url", "http://x", "-answer", "approved"}, 2, `agent-analysis check: invalid value "approved" for flag -answer: it is approve, reject, cancel, or a JSON file of resume entries, and no such file exists (see agent-analysis check -h)` + "\n"},
		{[]string{"check", "-answer", "approve", valid}, 2, "agent-analysis check: -answer goes with -url (see agent-analysis check -h)\n"},
		{[]string{"check", "-junit", filepath.Join(dir, "no", "r.xml"), valid}, 2, "agent-analysis check: invalid value \"" + filepath.Join(dir, "no", "r.xml") + "\" for flag -junit: the folder " + filepath.Join(dir, "no") + " does not exist (see agent-analysis check -h)\n"},
		{[]string{"check", "-sarif", dir, valid}, 2, "is a folder"},
		{[]string{"record", "-url", "http://x"}, 2, "agent-analysis record: -o FILE is required (see agent-analysis record -h)\n"},
		{[]string{"proxy", "-upstream", "http://x", "-sarif", filepath.Join(dir, "no", "x.sarif")}, 2, "for flag -sarif: the folder " + filepath.Join(dir, "no") + " does not exist"},
		{[]string{"serve", "-max-streams", "0"}, 2, "agent-analysis serve: -max-streams must be at least 1, got 0 (see agent-analysis serve -h)\n"},
		{[]string{"serve", "-fixtures", filepath.Join(dir, "no")}, 2, "agent-analysis serve: invalid value \"" + filepath.Join(dir, "no") + "\" for flag -fixtures: " + filepath.Join(dir, "no") + " is not a folder (see agent-analysis serve -h)\n"},
		{[]string{"-addr", ":0"}, 2, "agent-analysis: give the command before its flags, as in agent-analysis serve -addr (see agent-analysis help)\n"},
		{[]string{"serv"}, 2, "agent-analysis: no command \"serv\" (see agent-analysis help)\n"},
		{[]string{"help", "nope"}, 2, "agent-analysis: help: no command \"nope\" (see agent-analysis help)\n"},
		{[]string{"help"}, 0, ""},
		{[]string{"version"}, 0, ""},
		{[]string{"check", "-h"}, 0, ""},
	} {
		var stderr bytes.Buffer
		err := run(context.Background(), tt.args, io.Discard, &stderr)
		code := exitCode(err, &stderr)
		if code != tt.code || !strings.Contains(stderr.String(), tt.stderr) || (tt.stderr == "" && stderr.Len() > 0) {
			t.Errorf("%v: exit %d, want %d; stderr:\n%s", tt.args, code, tt.code, stderr.String())
		}
		if strings.Contains(stderr.String(), "s3cret") {
			t.Errorf("%v: a header's value is shown:\n%s", tt.args, stderr.String())
		}
		if tt.stderr != "" && strings.Count(stderr.String(), tt.stderr) != 1 {
			t.Errorf("%v: the error is printed %d times:\n%s", tt.args, strings.Count(stderr.String(), tt.stderr), stderr.String())
		}
	}
}

// One file that cannot be read, among several, gets its own FAIL line;
// the others are still checked.
func TestOneUnreadableFileAmongSeveral(t *testing.T) {
	dir := t.TempDir()
	bad := testfile.Write(t, dir, "bad.json", `[{"type": RUN_STARTED}]`)
	gone := filepath.Join(dir, "gone.json")
	os.Symlink(filepath.Join(dir, "nowhere"), gone)
	var out bytes.Buffer
	err := run(context.Background(), []string{"check", bad, gone, "../../../kit/check/testdata/scripts/valid.jsonl"}, &out, io.Discard)
	lines := strings.Split(out.String(), "\n")
	if !errors.Is(err, errFailed) || !strings.HasPrefix(lines[0], "FAIL bad: file: "+bad+": line 1, column 11: invalid JSON") ||
		!strings.HasPrefix(lines[1], "FAIL gone: file: "+gone+": ") || lines[2] != "ok   valid" || lines[3] != "1 passed, 2 failed" {
		t.Errorf("%v\n%s", err, out.String())
	}
}

// A file named that is there but cannot be looked at (in a folder the
// user may not search) fails its own line, rule file, and the others are
// still checked: only a file not there is a command line that cannot
// run. Tests run as root, who may search any folder, so lstat stands in.
func TestAFileInAFolderNotSearchableFailsItsLine(t *testing.T) {
	locked := filepath.Join(t.TempDir(), "locked", "a.jsonl")
	defer func(was func(string) (fs.FileInfo, error)) { lstat = was }(lstat)
	lstat = func(path string) (fs.FileInfo, error) {
		if path == locked {
			return nil, &fs.PathError{Op: "lstat", Path: path, Err: syscall.EACCES}
		}
		return os.Lstat(path)
	}
	var out, errs bytes.Buffer
	err := run(context.Background(), []string{"check", locked, "../../../kit/check/testdata/scripts/valid.jsonl"}, &out, &errs)
	lines := strings.Split(out.String(), "\n")
	if code := exitCode(err, &errs); code != 1 || !strings.HasPrefix(lines[0], "FAIL a: file: "+locked+": ") || lines[1] != "ok   valid" || lines[2] != "1 passed, 1 failed" {
		t.Errorf("exit %d\n%s%s", code, out.String(), errs.String())
	}
}

// check reads what curl -N writes: this server's golden streams among them.
func TestCheckReadsSSECaptures(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), []string{"check", "-v", "../../testdata/normal.sse", "../../../kit/check/testdata/captures/crlf.sse"}, &out, io.Discard)
	if err != nil || !strings.HasPrefix(out.String(), "ok   normal\nok   crlf\n") || !strings.Contains(out.String(), `note: SSE fields AG-UI gives no meaning to, which clients ignore: "event" ×1`) {
		t.Errorf("%v\n%s", err, out.String())
	}
}
