// Package layout has no code: its test holds the repository's import
// rules, so that the folders keep showing the architecture.
package layout

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/agent-analysis/agent-analysis/"

// parts are the top-level folders from the bottom up: a package imports
// only packages of its own part or of parts listed before it. Tests may
// reach further up (a test of app plays the fixtures); builds may not.
var parts = []string{"internal", "agui", "app", "kit", "fixtures", "server", "wasm", "bench", "interop", "e2e"}

// maxLevels is the depth of the graph of parts: the longest chain of
// parts, each importing the next.
const maxLevels = 5

type pkg struct {
	ImportPath string
	Imports    []string
}

func list(t *testing.T, env []string, patterns ...string) []pkg {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json=ImportPath,Imports"}, patterns...)...)
	cmd.Dir = "../.."
	cmd.Env = append(cmd.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	for d := json.NewDecoder(bytes.NewReader(out)); d.More(); {
		var p pkg
		if err := d.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// part is the top-level folder of one of the module's packages, or "" for
// another module's.
func part(path string) string {
	rest, ok := strings.CutPrefix(path, module)
	if !ok {
		return ""
	}
	top, _, _ := strings.Cut(rest, "/")
	return top
}

func TestImportsPointDown(t *testing.T) {
	above := map[string][]string{} // part -> the parts it imports
	for _, p := range list(t, nil, "./...") {
		from := part(p.ImportPath)
		rank := slices.Index(parts, from)
		if rank < 0 {
			t.Errorf("%s: top-level folder %q is not one of %v", p.ImportPath, from, parts)
			continue
		}
		for _, imp := range p.Imports {
			to := part(imp)
			if to == "" || to == from {
				continue
			}
			if slices.Index(parts, to) > rank {
				t.Errorf("upward import: %s imports %s", p.ImportPath, imp)
			}
			if !slices.Contains(above[from], to) {
				above[from] = append(above[from], to)
			}
		}
	}
	var depth func(string) int
	depth = func(p string) int {
		d := 1
		for _, q := range above[p] {
			d = max(d, 1+depth(q))
		}
		return d
	}
	for _, p := range parts {
		if d := depth(p); d > maxLevels {
			t.Errorf("%s sits on level %d of the parts graph; at most %d", p, d, maxLevels)
		}
	}
}

// The engine is a library: it and its packages (jsonpatch, sse, proto)
// import nothing of this module but themselves.
func TestEngineStandsAlone(t *testing.T) {
	var engine []string
	for _, p := range list(t, nil, "-deps", "./agui/...") {
		switch part(p.ImportPath) {
		case "":
		case "agui":
			engine = append(engine, strings.TrimPrefix(p.ImportPath, module))
		default:
			t.Errorf("the engine depends on %s", p.ImportPath)
		}
	}
	for _, want := range []string{"agui", "agui/jsonpatch", "agui/sse", "agui/proto"} {
		if !slices.Contains(engine, want) {
			t.Errorf("%s is not among the engine's packages %v: the rule holds for nothing", want, engine)
		}
	}
}

// The browser build carries the client alone: no fixtures, test kit or
// server code reaches the wasm, and no protobuf code (the binary
// transport is the server's and the kit's; the page reads SSE).
func TestWasmCarriesTheClientOnly(t *testing.T) {
	for _, p := range list(t, []string{"GOOS=js", "GOARCH=wasm"}, "-deps", "./wasm") {
		switch {
		case p.ImportPath == module+"agui/proto" || strings.HasPrefix(p.ImportPath, "google.golang.org/protobuf"):
			t.Errorf("the wasm build imports protobuf code: %s", p.ImportPath)
		case slices.Contains([]string{"", "agui", "app", "wasm"}, part(p.ImportPath)):
		case p.ImportPath == module+"internal/theme": // the theme switch both pages share
		default:
			t.Errorf("the wasm build imports %s", p.ImportPath)
		}
	}
}

// The inspector's page carries the page alone: the runs' JSON types and
// the theme switch both pages share, not the store, the proxy, the engine
// or the demo.
func TestTheInspectorsWasmCarriesThePageOnly(t *testing.T) {
	allowed := []string{"kit/inspect/page", "kit/inspect/runs", "internal/theme", "wasm/inspector"}
	var seen []string
	for _, p := range list(t, []string{"GOOS=js", "GOARCH=wasm"}, "-deps", "./wasm/inspector") {
		switch {
		case part(p.ImportPath) == "":
		case slices.Contains(allowed, strings.TrimPrefix(p.ImportPath, module)):
			seen = append(seen, strings.TrimPrefix(p.ImportPath, module))
		default:
			t.Errorf("the inspector's wasm imports %s", p.ImportPath)
		}
	}
	if len(seen) != len(allowed) {
		t.Errorf("the inspector's wasm is made of %v, want %v: the rule holds for nothing", seen, allowed)
	}
}

// The test kit is for any agent and any client: it depends on the engine,
// never on the demo (app), which it would otherwise judge others by.
func TestTheKitDoesNotDependOnTheDemo(t *testing.T) {
	for _, p := range list(t, nil, "-deps", "./kit/...") {
		if part(p.ImportPath) == "app" {
			t.Errorf("the kit depends on the demo's %s", p.ImportPath)
		}
	}
}
