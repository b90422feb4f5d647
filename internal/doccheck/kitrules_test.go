package doccheck

import (
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/kit/rules"
)

// The kit's reports link each rule of its own to the test kit's table of
// them: the heading the link names exists, and the table has a row for
// every rule the kit names, with the page the reports link it to.
func TestTheKitsRulesTableMatchesKitRules(t *testing.T) {
	doc := read(t, "docs/test-kit.md")
	_, frag, _ := strings.Cut(rules.Guide, "#")
	if !anchors(doc)[frag] {
		t.Fatalf("rules.Guide links to #%s, which docs/test-kit.md has no heading for", frag)
	}
	documented := map[string]string{} // rule → its page cell
	for _, r := range rows(section(t, doc, "## The rules the kit names")) {
		if len(r) != 3 {
			t.Errorf("row %q has %d cells, want 3", r, len(r))
			continue
		}
		for _, id := range strings.Split(r[0], ", ") {
			if id != "…" {
				documented[strings.Trim(id, "`")] = r[2]
			}
		}
	}
	for _, id := range rules.Kit() {
		page, ok := documented[id]
		switch {
		case !ok:
			t.Errorf("no row for the kit's rule %s", id)
		case rules.Page(id) == rules.Guide && page != "this table":
			t.Errorf("%s: the reports link this table, the row says %s", id, page)
		case rules.Page(id) != rules.Guide && !strings.Contains(page, "("+rules.Page(id)+")"):
			t.Errorf("%s: the reports link %s, the row says %s", id, rules.Page(id), page)
		}
	}
	for id := range documented {
		if !rules.Known(id) {
			t.Errorf("the table names %s, which the kit does not", id)
		}
	}
}
