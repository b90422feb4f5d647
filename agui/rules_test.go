package agui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"
)

// Every rule has its own id, a page, words and a meaning, is found by its
// id, and the fatal ones come first.
func TestRulesAreListedOnce(t *testing.T) {
	seen := map[Rule]bool{}
	warning := false
	for _, r := range Rules() {
		if seen[r] || r.ID() == "" || r.Page() == "" || r.URL() == "" || r.Quote() == "" || r.Summary() == "" {
			t.Errorf("rule %q: page %q, quote %q, summary %q", r, r.Page(), r.Quote(), r.Summary())
		}
		seen[r] = true
		if got, ok := RuleByID(r.ID()); !ok || got != r {
			t.Errorf("RuleByID(%q) = %q, %v", r.ID(), got, ok)
		}
		if r.Fatal() && warning {
			t.Errorf("fatal rule %s is listed after a warning", r)
		}
		warning = warning || !r.Fatal()
	}
	if r, ok := RuleByID("no-such-rule"); ok || r.Page() != "" || r.URL() != "" || Rule("").Fatal() {
		t.Errorf("an id the engine does not name is %q, %v", r, ok)
	}

	// Every Rule constant of rules.go is in the list, and nothing else is.
	file, err := parser.ParseFile(token.NewFileSet(), "rules.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := 0
	ast.Inspect(file, func(n ast.Node) bool {
		v, ok := n.(*ast.ValueSpec)
		if !ok || len(v.Values) != 1 {
			return true
		}
		if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Rule" {
			return true
		}
		lit, ok := v.Values[0].(*ast.BasicLit)
		if !ok {
			t.Errorf("rule %s is not a string literal", v.Names[0].Name)
			return true
		}
		declared++
		if id, _ := strconv.Unquote(lit.Value); !seen[Rule(id)] {
			t.Errorf("rule %s (%s) is declared but not listed", v.Names[0].Name, id)
		}
		return true
	})
	if declared != len(Rules()) {
		t.Errorf("rules.go declares %d rules; Rules lists %d", declared, len(Rules()))
	}
}
