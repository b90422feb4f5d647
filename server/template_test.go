package server

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-analysis/agent-analysis/server/library"
)

// Every built-in script is framed once, and its template gives
// ForRequest's bytes for any ids, those that need escaping included.
func TestEveryBuiltInScriptHasATemplate(t *testing.T) {
	lib := library.BuiltIn()
	framed := newTemplates(lib)
	for _, name := range lib.Names() {
		tp, ok := framed[name]
		frames := tp.frames
		if !ok {
			t.Errorf("%s: no template", name)
			continue
		}
		s, _ := lib.Lookup(name)
		for _, id := range [][2]string{{"t1", "r1"}, {`a"b\c`, "\u00e9\n"}, {"x@y", "</script>"}} {
			var got, want []byte
			for i, st := range s.ForRequest(id[0], id[1]) {
				got = frames[i].appendTo(got, escapedIDs(id[0], id[1]))
				want = appendFrame(want, st)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s for %q: template gives\n%s\nForRequest\n%s", name, id, got, want)
			}
		}
	}
}

// A script that holds a placeholder's text itself cannot be framed ahead:
// its template fails the check, and each request frames its own.
func TestAScriptHoldingAPlaceholderHasNoTemplate(t *testing.T) {
	dir := t.TempDir()
	file := `[{"type":"RUN_STARTED","threadId":"t","runId":"r"},` +
		`{"type":"CUSTOM","name":"x","value":"` + placeholderRun + `"},{"type":"RUN_FINISHED","threadId":"t","runId":"r"}]`
	if err := os.WriteFile(filepath.Join(dir, "holds-a-placeholder.json"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, err := library.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := newTemplates(lib)["holds-a-placeholder"]; ok {
		t.Fatal("a template for a script holding a placeholder")
	}
	frames, id, _ := newTemplates(lib).forRequest(lib, runInput{Scenario: "holds-a-placeholder", ThreadID: "t1", RunID: "r1"})
	var got []byte
	for _, f := range frames {
		got = f.appendTo(got, id)
	}
	want := "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n" +
		"data: {\"type\":\"CUSTOM\",\"name\":\"x\",\"value\":\"" + placeholderRun + "\"}\n\n" +
		"data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
