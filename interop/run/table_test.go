package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The table reads, and every file it names is there: each agent's entry
// file and lock, each case's inputs. Needs no Node.
func TestTableNamesFilesThatExist(t *testing.T) {
	agents, cases, err := readTable("../cases.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(agents) < 3 || len(cases) < len(agents) {
		t.Fatalf("%d agents, %d cases: the table lost its rows", len(agents), len(cases))
	}
	for _, a := range agents {
		for _, f := range []string{"server.mjs", "package.json", "package-lock.json"} {
			if _, err := os.Stat(filepath.Join("..", "agents", a.Name, f)); err != nil {
				t.Errorf("agent %s: %v", a.Name, err)
			}
		}
		if !strings.HasPrefix(a.Endpoint, "/") {
			t.Errorf("agent %s: endpoint %q is not a path", a.Name, a.Endpoint)
		}
	}
	for _, c := range cases {
		for _, flag := range []string{"-input", "-then"} {
			if v := flagValue(c.Args, flag); v != "" {
				if _, err := os.Stat(filepath.Join("..", v)); err != nil {
					t.Errorf("line %d, %s: %s %v", c.Line, c, flag, err)
				}
			}
		}
	}
}

func TestSplitArgs(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"-input a.json  -answer approve", []string{"-input", "a.json", "-answer", "approve"}},
		{"-H 'X-Key: one two' -name x", []string{"-H", "X-Key: one two", "-name", "x"}},
		{"-H ''", []string{"-H", ""}},
	} {
		got, err := splitArgs(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("splitArgs(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := splitArgs("-H 'open"); err == nil {
		t.Error("an unclosed quote was accepted")
	}
}
