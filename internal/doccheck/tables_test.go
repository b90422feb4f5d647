package doccheck

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/agui"
)

// The guide's rules table lists every rule the engine names, each once,
// with its page.
func TestRulesTableMatchesTheEngine(t *testing.T) {
	listed := map[string][]string{}
	for _, r := range rows(section(t, read(t, "docs/agent-analysis.md"), "### The rules the engine names")) {
		if len(r) != 4 || (r[1] != "fatal" && r[1] != "warn") || r[3] == "" {
			t.Errorf("rules table: row %q: want id, fatal or warn, page, meaning", r)
			continue
		}
		id := unquote(r[0])
		if listed[id] != nil {
			t.Errorf("rules table: %s has two rows", id)
		}
		listed[id] = r
	}
	for _, rule := range agui.Rules() {
		r, ok := listed[rule.ID()]
		if !ok {
			t.Errorf("rules table: no row for %s (%s)", rule, rule.Page())
			continue
		}
		severity := "warn"
		if rule.Fatal() {
			severity = "fatal"
		}
		if r[1] != severity {
			t.Errorf("rules table: %s is %s, not %s", rule, severity, r[1])
		}
		if r[2] != rule.Page() {
			t.Errorf("rules table: %s is on page %s, not %s", rule, rule.Page(), r[2])
		}
		if r[3] != rule.Summary() {
			t.Errorf("rules table: %s means %q (agui's Summary), not %q", rule, rule.Summary(), r[3])
		}
		delete(listed, rule.ID())
	}
	for id := range listed {
		t.Errorf("rules table: %s is no rule of agui.Rules()", id)
	}
}

// script is what the guide says of a fixture, read from its file.
type script struct {
	Name  string `json:"name"`
	Group string `json:"group"`
	Rule  struct {
		ID   string `json:"id"`
		Page string `json:"page"`
	} `json:"rule"`
	Outcome       ending `json:"outcome"`
	Continuations []struct {
		Name    string `json:"name"`
		Outcome ending `json:"outcome"`
	} `json:"continuations"`
}

type ending struct {
	Status   string `json:"status"`
	Who      string `json:"who"`
	Accepted int    `json:"accepted"`
}

func (e ending) String() string {
	s := e.Status
	if e.Who != "" {
		s += " (" + e.Who + ")"
	}
	return fmt.Sprintf("%s, %d accepted", s, e.Accepted)
}

// ends is the fault lab's "this demo ends" cell of a script.
func (s script) ends() string {
	out := s.Outcome.String()
	for _, c := range s.Continuations {
		out += "; → " + c.Name + ": " + c.Outcome.String()
	}
	return out
}

func fixtures(t *testing.T) []script {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, "fixtures", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var out []script
	for _, p := range paths {
		var s script
		if err := json.Unmarshal([]byte(read(t, filepath.Join("fixtures", filepath.Base(p)))), &s); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, s)
	}
	return out
}

// The guide's scenarios and fault lab list every built-in script in its
// group, with its rule, page and ending, and count each group right.
func TestFaultLabMatchesTheFixtures(t *testing.T) {
	guide := read(t, "docs/agent-analysis.md")
	byName := map[string]script{}
	groups := map[string][]string{}
	for _, s := range fixtures(t) {
		byName[s.Name] = s
		groups[s.Group] = append(groups[s.Group], s.Name)
	}

	var scenarios []string
	for _, r := range rows(section(t, guide, "### The scenarios")) {
		scenarios = append(scenarios, unquote(r[0]))
	}
	slices.Sort(scenarios)
	if slices.Sort(groups["demo"]); !slices.Equal(scenarios, groups["demo"]) {
		t.Errorf("scenarios table: %v, want the demo group's %v", scenarios, groups["demo"])
	}

	lab := section(t, guide, "### The fault lab")
	heading := map[string]string{"**rejects**": "fatal", "**warns about**": "warn", "**legal**": "legal"}
	listed := map[string][]string{}
	group := ""
	for _, r := range rows(lab) {
		if g, ok := heading[r[0]]; ok {
			group = g
			continue
		}
		if len(r) != 4 {
			t.Errorf("fault lab: row %q has %d cells, want 4 (script, rule, page, this demo ends)", r, len(r))
			continue
		}
		name := unquote(r[0])
		s, ok := byName[name]
		switch {
		case !ok:
			t.Errorf("fault lab: %s is no script of fixtures/", name)
			continue
		case s.Group != group:
			t.Errorf("fault lab: %s is listed under %s, its group is %s", name, group, s.Group)
		}
		listed[group] = append(listed[group], name)
		if want := s.Rule.ID; unquote(r[1]) != want {
			t.Errorf("fault lab: %s's rule is %q, not %q", name, want, unquote(r[1]))
		}
		if r[2] != s.Rule.Page {
			t.Errorf("fault lab: %s's page is %q, not %q", name, s.Rule.Page, r[2])
		}
		if r[3] != s.ends() {
			t.Errorf("fault lab: %s ends %q, not %q", name, s.ends(), r[3])
		}
	}

	counted := regexp.MustCompile("\\(`(fatal|warn|legal)`, (\\d+) scripts\\)")
	counts := counted.FindAllStringSubmatch(lab, -1)
	if len(counts) != 3 {
		t.Errorf("fault lab: %d group counts, want 3, written (`group`, N scripts)", len(counts))
	}
	for _, m := range counts {
		if want := fmt.Sprint(len(groups[m[1]])); m[2] != want {
			t.Errorf("fault lab: %s counted %s scripts, fixtures/ has %s", m[1], m[2], want)
		}
	}
	for _, g := range []string{"fatal", "warn", "legal"} {
		slices.Sort(groups[g])
		slices.Sort(listed[g])
		if !slices.Equal(listed[g], groups[g]) {
			t.Errorf("fault lab: %s lists %v, fixtures/ has %v", g, listed[g], groups[g])
		}
	}
}

// Every path of the README's layout table exists, and every package of
// the module is under one of them.
func TestLayoutTableCoversThePackages(t *testing.T) {
	var paths []string
	backticked := regexp.MustCompile("`([^`]+)`")
	for _, r := range rows(section(t, read(t, "README.md"), "## Layout")) {
		for _, m := range backticked.FindAllStringSubmatch(r[0], -1) {
			p := strings.TrimSuffix(m[1], "/")
			if fi, err := os.Stat(filepath.Join(root, p)); err != nil || !fi.IsDir() {
				t.Errorf("layout table: %s is no folder (%v)", m[1], err)
			}
			paths = append(paths, p)
		}
	}
	list := exec.Command("go", "list", "./...")
	list.Dir = root
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		dir := strings.TrimPrefix(pkg, "github.com/agent-analysis/agent-analysis/")
		if !slices.ContainsFunc(paths, func(p string) bool { return dir == p || strings.HasPrefix(dir, p+"/") }) {
			t.Errorf("layout table: no row for %s", dir)
		}
	}
}
