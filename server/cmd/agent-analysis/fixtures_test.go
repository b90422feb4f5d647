package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// serve -fixtures plays a directory's scripts beside the built-in ones.
func TestServePlaysScriptsFromFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.jsonl"), []byte(
		`{"type":"RUN_STARTED","threadId":"x","runId":"y"}`+"\n"+
			`{"afterMs":1,"comment":"hello"}`+"\n"+
			`{"type":"RUN_FINISHED","threadId":"x","runId":"y"}`+"\n"), 0o644)
	in := start(t, "-web", webWithWasm(t), "-fixtures", dir)
	var listening map[string]any
	for _, l := range in.stdout.logLines() {
		if l["msg"] == "listening" {
			listening = l
		}
	}
	if listening["fromFiles"] != float64(1) {
		t.Errorf("listening line %v", listening)
	}
	if got := body(t, in.base, "mine"); got != "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n: hello\n\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n" {
		t.Errorf("%q", got)
	}
	if got := body(t, in.base, "normal"); !strings.Contains(got, "RUN_FINISHED") {
		t.Errorf("the built-ins are gone: %q", got)
	}
}

// A bad directory or file refuses the start, naming the path, the line
// where there is one, and the reason; nothing is served.
func TestServeRefusesBadFixtures(t *testing.T) {
	root := t.TempDir()
	dir := func(name string, files map[string]string) string {
		d := filepath.Join(root, name)
		os.Mkdir(d, 0o755)
		for file, content := range files {
			os.WriteFile(filepath.Join(d, file), []byte(content), 0o644)
		}
		return d
	}
	const event = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`
	unreadable := dir("unreadable", nil)
	os.Symlink(filepath.Join(root, "nowhere"), filepath.Join(unreadable, "gone.json"))
	huge := dir("huge", nil)
	if f, err := os.Create(filepath.Join(huge, "huge.json")); err == nil {
		f.Truncate(50 << 20) // sparse
		f.Close()
	}
	invalid := dir("invalid", map[string]string{"bad.jsonl": event + "\n" + event + "\n{\"type\": RUN_FINISHED}\n"})
	builtIn := dir("built-in", map[string]string{"normal.json": "[" + event + "]"})
	one := dir("one", map[string]string{"twice.json": "[" + event + "]"})
	two := dir("two", map[string]string{"other.json": `{"name":"twice","stream":[` + event + `]}`})

	tests := []struct {
		name string
		dirs []string
		says string
	}{
		{"an unreadable file", []string{unreadable}, filepath.Join(unreadable, "gone.json") + ": cannot read it: no such file or directory"},
		{"a 50 MiB file", []string{huge}, filepath.Join(huge, "huge.json") + ": the file is 50.0 MiB, over the 16 MiB a script may be"},
		{"invalid JSON on line 3", []string{invalid}, filepath.Join(invalid, "bad.jsonl") + ": line 3, column 10: invalid JSON: invalid character 'R'"},
		{"a built-in's name", []string{builtIn}, filepath.Join(builtIn, "normal.json") + `: script "normal" has the name of a built-in script`},
		{"a name twice", []string{one, two}, filepath.Join(two, "other.json") + `: script "twice" is already loaded from ` + filepath.Join(one, "twice.json")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout bytes.Buffer
			args := []string{"serve", "-addr", "127.0.0.1:0", "-web", t.TempDir()}
			for _, d := range tt.dirs {
				args = append(args, "-fixtures", d)
			}
			err := run(context.Background(), args, &stdout, io.Discard)
			if err == nil || !strings.HasPrefix(err.Error(), "-fixtures: nothing served:\n"+tt.says) {
				t.Errorf("%v\nwant it to start %q", err, tt.says)
			}
			if strings.Contains(stdout.String(), "listening") {
				t.Error("the server listened")
			}
		})
	}
}
