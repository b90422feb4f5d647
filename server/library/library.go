// Package library holds the scripts a server plays: the built-in fixtures,
// and those of the directories it was started with, each under a name no
// other script has. A library is filled once, at start, and only read
// after: a request never reaches the disk.
package library

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/app/catalogue"
	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// Library is a set of named scripts and what the demo offers of them.
type Library struct {
	scripts   map[string]script.Script
	catalogue catalogue.Catalogue // built-ins first, then files in the order loaded
	notices   []string
}

// Notices are what loading found odd in the files' scripts but served
// anyway: events of a type AG-UI does not describe, which every client
// drops (a misspelt RUN_FINISHED leaves each run truncated).
func (l *Library) Notices() []string { return l.notices }

// BuiltIn is the fixtures alone: what a server started without files plays.
func BuiltIn() *Library {
	l := &Library{scripts: map[string]script.Script{}, catalogue: fixtures.Catalogue()}
	for _, f := range fixtures.All() {
		l.scripts[f.Name] = f.Script
	}
	return l
}

// Load is the built-in scripts and every script in dirs (their .json and
// .jsonl files, in name order; see script.Paths for what a file may
// hold). A bad file or a name already taken refuses the whole library,
// never half of it: the error lists every problem, one a line, each
// starting with its path.
func Load(dirs ...string) (*Library, error) {
	l := BuiltIn()
	loadedFrom := map[string]string{} // a file script's name → its path
	given := map[string]bool{}
	var problems []error
	for _, dir := range dirs {
		if given[filepath.Clean(dir)] {
			problems = append(problems, fmt.Errorf("%s: given twice", dir))
			continue
		}
		given[filepath.Clean(dir)] = true
		paths, err := script.Paths(dir)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		for _, path := range paths {
			s, err := script.ReadFile(path)
			switch {
			case err != nil:
				problems = append(problems, err)
				continue
			case loadedFrom[s.Name] != "":
				problems = append(problems, fmt.Errorf("%s: script %q is already loaded from %s: give one of them another name", path, s.Name, loadedFrom[s.Name]))
				continue
			case l.scripts[s.Name].Frames != nil:
				problems = append(problems, fmt.Errorf("%s: script %q has the name of a built-in script: give it another name (its \"name\", or its file's)", path, s.Name))
				continue
			}
			loadedFrom[s.Name] = path
			l.scripts[s.Name] = s
			l.notices = append(l.notices, unknownTypes(path, s)...)
			l.catalogue = append(l.catalogue, entry(s, path))
		}
	}
	if len(problems) > 0 {
		return nil, errors.Join(problems...)
	}
	return l, nil
}

// entry is a file's script as the Scenario select offers it, in a group
// of its own.
func entry(s script.Script, path string) catalogue.Entry {
	description := s.Description
	if description == "" {
		description = "Loaded from " + path + "."
	}
	return catalogue.Entry{Name: s.Name, Group: catalogue.File, Description: description}
}

// Lookup returns the script of that name.
func (l *Library) Lookup(name string) (script.Script, bool) {
	s, ok := l.scripts[name]
	return s, ok
}

// Names lists every script's name, sorted.
func (l *Library) Names() []string { return slices.Sorted(maps.Keys(l.scripts)) }

// Catalogue is what the demo's Scenario select offers: the built-in
// scripts, then the files' in group catalogue.File.
func (l *Library) Catalogue() catalogue.Catalogue { return slices.Clone(l.catalogue) }

// unknownTypes notes a script's events of a type AG-UI does not describe.
func unknownTypes(path string, s script.Script) []string {
	var out []string
	for _, f := range append(s.Frames, continuationFrames(s)...) {
		t := agui.Type(f.Type)
		if f.Event == nil || f.Type == "" || t.Known() {
			continue
		}
		note := fmt.Sprintf("%s: line %d: an event of type %q, which AG-UI does not describe: clients drop it", path, f.Line, f.Type)
		if near := t.Nearest(); near != "" {
			note += fmt.Sprintf(" (a misspelt %s?)", near)
		}
		out = append(out, note)
	}
	return out
}

func continuationFrames(s script.Script) []script.Frame {
	var out []script.Frame
	for _, c := range s.Continuations {
		out = append(out, c.Frames...)
	}
	return out
}
