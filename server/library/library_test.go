package library

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/internal/testfile"

	"github.com/agent-analysis/agent-analysis/app/catalogue"
	"github.com/agent-analysis/agent-analysis/fixtures"
)

const started = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`

func TestBuiltInIsTheFixtures(t *testing.T) {
	l := BuiltIn()
	if !slices.Equal(l.Names(), fixtures.Names()) || !reflect.DeepEqual(l.Catalogue(), fixtures.Catalogue()) {
		t.Fatalf("%v", l.Names())
	}
	if s, ok := l.Lookup("normal"); !ok || s.Name != "normal" || len(s.Frames) != 6 {
		t.Errorf("normal: %+v %v", s, ok)
	}
}

// Files join the built-ins in a group of their own, in the order given,
// each described by its file or, failing that, by where it came from.
func TestLoadAddsFilesInTheirOwnGroup(t *testing.T) {
	one, two := t.TempDir(), t.TempDir()
	testfile.Write(t, one, "b-lines.jsonl", started+"\n")
	testfile.Write(t, one, "a-corpus.json", `{"name":"corpus-name","description":"What it proves.","stream":[`+started+`]}`)
	testfile.Write(t, two, "array.json", "["+started+"]")
	testfile.Write(t, two, "README.md", "not a script")
	l, err := Load(one, two)
	if err != nil {
		t.Fatal(err)
	}
	files := l.Catalogue().In(catalogue.File)
	want := catalogue.Catalogue{
		{Name: "corpus-name", Group: catalogue.File, Description: "What it proves."},
		{Name: "b-lines", Group: catalogue.File, Description: "Loaded from " + filepath.Join(one, "b-lines.jsonl") + "."},
		{Name: "array", Group: catalogue.File, Description: "Loaded from " + filepath.Join(two, "array.json") + "."},
	}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("files offered as\n%+v\nwant\n%+v", files, want)
	}
	if got := l.Catalogue(); !reflect.DeepEqual(got[:len(got)-3], fixtures.Catalogue()) {
		t.Error("the built-ins are not offered first, as they were")
	}
	if len(l.Names()) != len(fixtures.Names())+3 || !slices.IsSorted(l.Names()) {
		t.Errorf("names %v", l.Names())
	}
	if s, ok := l.Lookup("b-lines"); !ok || string(s.Frames[0].Event) != started {
		t.Errorf("b-lines: %+v", s)
	}
}

// A bad directory, file or name refuses the whole library; the error
// lists each problem with its path (and line, when it has one).
func TestLoadRefusesTheWholeLibraryListingEveryProblem(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	good := testfile.Write(t, dir, "good.json", "["+started+"]")
	bad := testfile.Write(t, dir, "bad.jsonl", started+"\n{\"type\":\n")
	builtIn := testfile.Write(t, dir, "normal.json", "["+started+"]")
	again := testfile.Write(t, other, "good.jsonl", started)
	empty, missing := t.TempDir(), filepath.Join(dir, "missing")
	l, err := Load(dir, other, empty, missing, other+"/")
	if l != nil || err == nil {
		t.Fatalf("loaded %v", l)
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{
		bad + ": line 2, column 9: invalid JSON",
		builtIn + `: script "normal" has the name of a built-in script`,
		again + `: script "good" is already loaded from ` + good,
		empty + ": no .json or .jsonl script in it",
		missing + ": cannot read it: ",
		other + "/: given twice",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d problems:\n%s", len(lines), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("problem %d: %q, want it to start %q", i, lines[i], w)
		}
	}
}

// A file's event of a type AG-UI does not describe is served as written,
// and noticed at load, with what it may be a misspelling of.
func TestLoadNoticesUnknownEventTypes(t *testing.T) {
	dir := t.TempDir()
	path := testfile.Write(t, dir, "typo.jsonl", `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`+"\n"+`{"type":"RUN_FINSHED","threadId":"t","runId":"r"}`+"\n")
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := path + `: line 2: an event of type "RUN_FINSHED", which AG-UI does not describe: clients drop it (a misspelt RUN_FINISHED?)`
	if n := l.Notices(); len(n) != 1 || n[0] != want {
		t.Errorf("notices %q, want %q", n, want)
	}
	if len(BuiltIn().Notices()) != 0 {
		t.Error("the built-in scripts are noticed: their unknown events are faults on purpose")
	}
}

// A continuation whose "when" names an interrupt twice is refused at
// load, as check refuses it: one answer could meet both entries, a
// resume the engine would not send.
func TestLoadRefusesAWhenNamingAnInterruptTwice(t *testing.T) {
	dir := t.TempDir()
	interrupted := `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"ask","reason":"confirmation"}]}}`
	path := testfile.Write(t, dir, "ask.json", `{"stream":[`+started+`,`+interrupted+`],"continuations":[{"name":"yes",
  "when":[{"interruptId":"ask","status":"resolved"},{"interruptId":"ask","payload":{"approved":true}}],"stream":[`+started+`]}]}`)
	if _, err := Load(dir); err == nil || !strings.HasPrefix(err.Error(), path+`: line 2, column 53: continuation 0: "yes": when 1: interrupt "ask" is named twice`) {
		t.Errorf("loaded: %v", err)
	}
}
