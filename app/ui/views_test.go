//go:build !wasm

// go-app's test engine needs a DOM-less host: these run natively only.

package ui

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"golang.org/x/net/html"

	"github.com/agent-analysis/agent-analysis/app/catalogue"
	"github.com/agent-analysis/agent-analysis/app/chart"
	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/app/effects"
	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/fixtures/fixturetest"
)

// modelAfter plays the first n events of a scenario through Update, then
// the given Msgs.
func modelAfter(t *testing.T, scenario string, n int, then ...core.Msg) core.Model {
	t.Helper()
	m := play(t, scenario)[n]
	for _, msg := range then {
		m, _ = core.Update(m, msg)
	}
	return m
}

// render returns the demo's HTML for a model once the client is ready.
func render(t *testing.T, m core.Model) *html.Node {
	t.Helper()
	return renderDemo(t, &demo{model: m, scenarios: fixtures.Catalogue(), path: livePath, runner: effects.NewRunner(effects.Client{}, nil)})
}

// prerender is the page as the server sends it, before the wasm starts.
func prerender(t *testing.T, m core.Model) *html.Node {
	t.Helper()
	return renderDemo(t, &demo{model: m, scenarios: fixtures.Catalogue(), path: livePath})
}

func renderDemo(t *testing.T, d *demo) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(app.HTMLString(d)))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// find returns the elements for which match holds, in document order.
func find(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for c := range n.Descendants() {
		if c.Type == html.ElementNode && match(c) {
			out = append(out, c)
		}
	}
	return out
}

// attr reads an attribute as the browser's setAttribute would have set it.
// go-app's server encoding writes a "true" value as a bare attribute, so
// a bare aria-* attribute reads as "true" here. (In the browser the wasm
// sets aria-pressed="true"; see docs/agent-analysis.md.)
func attr(n *html.Node, name string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == name {
			if a.Val == "" && (strings.HasPrefix(name, "aria-") || strings.HasPrefix(name, "data-")) {
				return "true", true
			}
			return a.Val, true
		}
	}
	return "", false
}

func text(n *html.Node) string {
	var b strings.Builder
	for c := range n.Descendants() {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func has(name, value string) func(*html.Node) bool {
	return func(n *html.Node) bool { v, ok := attr(n, name); return ok && (value == "" || v == value) }
}

func tag(name string) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Data == name }
}

func one(t *testing.T, doc *html.Node, what string, match func(*html.Node) bool) *html.Node {
	t.Helper()
	got := find(doc, match)
	if len(got) != 1 {
		t.Fatalf("%d elements for %s, want 1", len(got), what)
	}
	return got[0]
}

func buttonNamed(t *testing.T, doc *html.Node, name string) *html.Node {
	return one(t, doc, "button "+name, func(n *html.Node) bool { return n.Data == "button" && text(n) == name })
}

// enabled reports the state of the Run, Cancel and Recover buttons.
func enabled(t *testing.T, doc *html.Node) [3]bool {
	var out [3]bool
	for i, name := range []string{"Run", "Cancel", "Recover"} {
		_, disabled := attr(buttonNamed(t, doc, name), "disabled")
		out[i] = !disabled
	}
	return out
}

func TestIdleScreen(t *testing.T) {
	doc := prerender(t, core.NewModel("thread-1"))

	// Prerendered, the client is not ready: Run waits for it, so that no
	// click is lost.
	if got := enabled(t, doc); got != [3]bool{false, false, false} {
		t.Errorf("Run, Cancel, Recover enabled: %v", got)
	}
	if !strings.Contains(text(doc), "Loading…") {
		t.Error("no loading state while Run waits")
	}
	status := one(t, doc, "the status", has("role", "status"))
	if text(status) != "Idle" {
		t.Errorf("status %q", text(status))
	}
	label := one(t, doc, "the Scenario label", tag("label"))
	if text(label) != "Scenario" || dropOK(attr(label, "for")) != "scenario" {
		t.Errorf("label %q for %q", text(label), dropOK(attr(label, "for")))
	}
	sel := one(t, doc, "the select", has("id", "scenario"))
	var groups []string
	options := map[string][]string{}
	for _, g := range find(sel, tag("optgroup")) {
		label := dropOK(attr(g, "label"))
		groups = append(groups, label)
		for _, o := range find(g, tag("option")) {
			options[label] = append(options[label], text(o))
		}
	}
	if strings.Join(groups, "|") != "Scenarios|Faults 1.0 rejects|Faults 1.0 warns about|Legal in 1.0" {
		t.Fatalf("option groups %q", groups)
	}
	if got := strings.Join(options["Scenarios"], " "); got != "normal invalid slow approval" {
		t.Errorf("scenarios %q", got)
	}
	for _, g := range groups[1:] {
		if len(options[g]) < 5 {
			t.Errorf("%s: %q", g, options[g])
		}
	}
	says := one(t, doc, "the scenario line", has("id", "scenario-says"))
	if !strings.Contains(text(says), "This demo: ") || dropOK(attr(sel, "aria-describedby")) != "scenario-says" {
		t.Errorf("scenario line %q", text(says))
	}
	for _, f := range []string{"All", "Core", "Platform"} {
		if got := dropOK(attr(buttonNamed(t, doc, f), "aria-pressed")); got != map[bool]string{true: "true", false: "false"}[f == "All"] {
			t.Errorf("%s aria-pressed %q", f, got)
		}
	}
	chart := one(t, doc, "the chart", func(n *html.Node) bool { return n.Data == "svg" && dropOK(attr(n, "role")) == "img" })
	if !strings.Contains(dropOK(attr(chart, "aria-label")), "no data yet") {
		t.Errorf("chart label %q", dropOK(attr(chart, "aria-label")))
	}
	if !strings.Contains(text(chart), "100 ms budget, not an SLO") || !strings.Contains(text(chart), "Volume (requests/min)") || !strings.Contains(text(chart), "p95 latency (ms)") {
		t.Errorf("chart text %q", text(chart))
	}
	if n := len(find(doc, has("data-service-id", ""))); n != 0 {
		t.Errorf("%d marks or rows with no data", n)
	}
	if n := len(find(doc, has("role", "alert"))); n != 0 {
		t.Error("an alert with nothing wrong")
	}
	if !strings.Contains(text(doc), "Accepted updates: 0") || !strings.Contains(text(doc), "Synthetic data") {
		t.Error("counter or synthetic-data label missing")
	}
	var summaries []string
	for _, n := range find(doc, tag("summary")) {
		summaries = append(summaries, text(n))
	}
	if len(summaries) != 2 || !strings.HasPrefix(summaries[0], "Activity") || !strings.HasPrefix(summaries[1], "Wire") {
		t.Errorf("disclosures %q", summaries)
	}
	one(t, doc, "the ready marker", has("data-ready", "false"))
}

func TestStreamingScreenWithSelection(t *testing.T) {
	m := modelAfter(t, "normal", 3, core.ClickedService{ID: "api"})
	doc := render(t, m)

	if got := enabled(t, doc); got != [3]bool{true, true, false} {
		t.Errorf("Run, Cancel, Recover enabled: %v", got)
	}
	if s := text(one(t, doc, "status", has("role", "status"))); s != "Streaming" {
		t.Errorf("status %q", s)
	}
	marks := find(doc, func(n *html.Node) bool { return n.Data == "g" && dropOK(attr(n, "data-service-id")) != "" })
	if len(marks) != 3 {
		t.Fatalf("%d marks", len(marks))
	}
	for _, mk := range marks {
		id := dropOK(attr(mk, "data-service-id"))
		rings := find(mk, has("class", "ring"))
		if (id == "api") != (len(rings) == 1) {
			t.Errorf("mark %s has %d rings", id, len(rings))
		}
		if len(find(mk, tag("title"))) != 1 {
			t.Errorf("mark %s has no title", id)
		}
	}
	baselines := find(doc, has("data-baseline-for", ""))
	if len(baselines) != 1 || dropOK(attr(baselines[0], "data-baseline-for")) != "api" {
		t.Errorf("baseline marks %d", len(baselines))
	}
	rows := find(doc, func(n *html.Node) bool { return n.Data == "tr" && dropOK(attr(n, "data-service-id")) != "" })
	// One tab stop: the selected row.
	for _, r := range rows {
		isAPI := dropOK(attr(r, "data-service-id")) == "api"
		want, stop := map[bool]string{true: "true", false: "false"}[isAPI], map[bool]string{true: "0", false: "-1"}[isAPI]
		if dropOK(attr(r, "aria-selected")) != want || dropOK(attr(r, "tabindex")) != stop {
			t.Errorf("row %s aria-selected %q tabindex %q", dropOK(attr(r, "data-service-id")), dropOK(attr(r, "aria-selected")), dropOK(attr(r, "tabindex")))
		}
		if isAPI && !strings.Contains(text(r), "Core , selected") && !strings.Contains(text(r), "Core, selected") {
			t.Errorf("the selected row reads %q: no separator before the cue", text(r))
		}
	}
	inspector := one(t, doc, "the inspector", has("class", "card inspector"))
	if !strings.Contains(text(inspector), "60 → 145 ms, +85 ms (+142%)") {
		t.Errorf("inspector %q", text(inspector))
	}
}

func TestRejectedScreen(t *testing.T) {
	doc := render(t, modelAfter(t, "invalid", 4))
	if got := enabled(t, doc); got != [3]bool{true, false, true} {
		t.Errorf("Run, Cancel, Recover enabled: %v", got)
	}
	alert := one(t, doc, "the alert", has("role", "alert"))
	for _, want := range []string{"no measurements changed", "operation 2 of 2 (replace /services/7/latency)", "Recover"} {
		if !strings.Contains(text(alert), want) {
			t.Errorf("alert %q lacks %q", text(alert), want)
		}
	}
	checkout := one(t, doc, "Checkout's row", func(n *html.Node) bool { return n.Data == "tr" && dropOK(attr(n, "data-service-id")) == "checkout" })
	if !strings.Contains(text(checkout), "92") {
		t.Errorf("checkout row %q", text(checkout))
	}
	if !strings.Contains(text(doc), "Accepted updates: 2") {
		t.Error("accepted count")
	}
}

func TestFilteredAndCompletedScreens(t *testing.T) {
	doc := render(t, modelAfter(t, "normal", 6, core.ClickedFilter{Filter: core.OnlyPlatform}, core.ClickedService{ID: "search"}))
	rows := find(doc, func(n *html.Node) bool { return n.Data == "tr" && dropOK(attr(n, "data-service-id")) != "" })
	if len(rows) != 2 || dropOK(attr(rows[0], "data-service-id")) != "auth" || dropOK(attr(rows[1], "data-service-id")) != "search" {
		t.Fatalf("rows %v", rows)
	}
	if !strings.Contains(text(rows[1]), "new, no baseline") {
		t.Errorf("search row %q", text(rows[1]))
	}
	if dropOK(attr(buttonNamed(t, doc, "Platform"), "aria-pressed")) != "true" {
		t.Error("Platform not pressed")
	}
	if got := len(find(doc, func(n *html.Node) bool { return n.Data == "g" && dropOK(attr(n, "data-service-id")) != "" })); got != 2 {
		t.Errorf("%d marks", got)
	}
	if !strings.Contains(text(one(t, doc, "inspector", has("class", "card inspector"))), "new, no baseline") {
		t.Error("inspector for an added service")
	}
	if s := text(one(t, doc, "status", has("role", "status"))); s != "Completed" {
		t.Errorf("status %q", s)
	}
}

func TestCancelledScreen(t *testing.T) {
	doc := render(t, modelAfter(t, "slow", 2, core.ClickedCancel{}))
	if s := text(one(t, doc, "status", has("role", "status"))); s != "Cancelled" {
		t.Errorf("status %q", s)
	}
	if !strings.Contains(text(doc), "run-1 · cancelled by you") {
		t.Error("cause not shown")
	}
	if got := enabled(t, doc); got != [3]bool{true, false, false} {
		t.Errorf("Run, Cancel, Recover enabled: %v", got)
	}
}

// The same checks as go-app's own matcher sees them.
func TestMatchControls(t *testing.T) {
	ui := button("Cancel", "", true, nil)
	if err := app.Match(app.Button().Type("button").Class("").Text("Cancel").Disabled(true), ui); err != nil {
		t.Error(err)
	}
	if err := app.Match(app.Button().Type("button").Class("primary").Text("Run"), button("Run", "primary", false, nil)); err != nil {
		t.Error(err)
	}
}

// dropOK is an attribute's value, "" when it is absent.
func dropOK(s string, _ bool) string { return s }

// A crowd of marks is drawn whole, without names (a hostile agent may send
// thousands of services).
func TestChartDrawsACrowd(t *testing.T) {
	n := chart.MaxLabels + 6
	doc := render(t, crowdModels(t, n, 0)[0])
	chart := one(t, doc, "the chart", has("class", "chart"))
	// One element per mark: a crowd's is its bare shape.
	marks := find(chart, func(n *html.Node) bool { return dropOK(attr(n, "data-service-id")) != "" })
	if len(marks) != n {
		t.Errorf("%d marks drawn, want %d", len(marks), n)
	}
	if n := len(find(doc, has("class", "label"))); n != 0 {
		t.Errorf("%d names written in a crowd", n)
	}
	if n := len(find(doc, has("class", "budget-label"))); n != 1 {
		t.Errorf("%d budget labels", n)
	}
}

// A long list is virtualised: the grid says how many rows it has, the
// rows in the page say where they are, and spacers stand for the others.
func TestTableOfACrowd(t *testing.T) {
	doc := render(t, crowdModels(t, 1000, 0)[0])
	grid := one(t, doc, "the grid", has("role", "grid"))
	if got := dropOK(attr(grid, "aria-rowcount")); got != "1001" {
		t.Errorf("aria-rowcount %s", got)
	}
	rows := find(grid, has("data-service-id", ""))
	if len(rows) < 20 || len(rows) > 100 {
		t.Fatalf("%d rows in the page", len(rows))
	}
	for i, r := range rows {
		if got := dropOK(attr(r, "aria-rowindex")); got != strconv.Itoa(i+2) {
			t.Fatalf("row %d has aria-rowindex %s", i, got)
		}
	}
	if got := dropOK(attr(rows[0], "tabindex")); got != "0" {
		t.Errorf("the first row's tabindex %s", got)
	}
	spacers := find(grid, has("class", "spacer below"))
	if len(spacers) != 1 || dropOK(attr(spacers[0], "aria-hidden")) != "true" {
		t.Errorf("%d spacers", len(spacers))
	}
	if box := one(t, doc, "the table's box", has("id", tableBoxID)); !strings.Contains(dropOK(attr(box, "class")), "scroll") {
		t.Error("a long table does not scroll in its box")
	}
}

// renderArrivalLog is the arrival log of a model, opened.
func renderArrivalLog(t *testing.T, m core.Model) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(app.HTMLString(&arrivalLog{Arrivals: m.Arrivals, disclosed: disclosed{open: true}})))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// The arrival log lists a normal run's six events as applied, and an
// invalid run's refused one; closed, it draws none.
func TestArrivalLog(t *testing.T) {
	verdicts := func(doc *html.Node) []string {
		var out []string
		for _, li := range find(doc, has("data-verdict", "")) {
			out = append(out, dropOK(attr(li, "data-verdict")))
		}
		return out
	}
	if got := verdicts(render(t, modelAfter(t, "normal", 6))); len(got) != 0 {
		t.Errorf("closed, the arrival log draws %v", got)
	}
	normal := renderArrivalLog(t, modelAfter(t, "normal", 6))
	if got := verdicts(normal); strings.Join(got, ",") != "applied,applied,applied,applied,applied,applied" {
		t.Errorf("normal: %v", got)
	}
	if pre := find(normal, tag("pre")); len(pre) != 6 || !strings.Contains(text(pre[1]), `"snapshot": {`) {
		t.Errorf("the snapshot's JSON is not shown pretty-printed")
	}
	invalid := renderArrivalLog(t, modelAfter(t, "invalid", 4))
	if got := verdicts(invalid); strings.Join(got, ",") != "applied,applied,applied,refused" {
		t.Errorf("invalid: %v", got)
	}
}

// The chart's text alternative states each change against the baseline and
// the budget, updated with every accepted update.
func TestChartDescribesChanges(t *testing.T) {
	label := func(m core.Model) string {
		chart := one(t, render(t, m), "the chart", func(n *html.Node) bool { return n.Data == "svg" && dropOK(attr(n, "role")) == "img" })
		return dropOK(attr(chart, "aria-label"))
	}
	if got := label(modelAfter(t, "normal", 2)); strings.Contains(got, "->") {
		t.Errorf("before the spike: %q", got)
	}
	if got := label(modelAfter(t, "normal", 3)); !strings.Contains(got, "API p95 60 -> 145 ms, above the 100 ms budget") {
		t.Errorf("after the spike: %q", got)
	}
	if got := label(modelAfter(t, "normal", 5)); !strings.Contains(got, "Search p95 71 ms, new, no baseline") {
		t.Errorf("after Search arrived: %q", got)
	}
}

// Every script's last screen says how the run ended and who ended it; a
// broken rule is quoted with its page, an agent's own report never is, a
// run this demo stopped says so (quoting 1.x's permission, never as a
// violation), an interrupted run asks its question, and what the engine
// warned about is counted on the status and listed in the arrival log.
func TestEveryScriptExplainsItsEnd(t *testing.T) {
	for _, s := range fixtures.All() {
		t.Run(s.Name, func(t *testing.T) {
			models := play(t, s.Name)
			last := models[len(models)-1]
			doc := render(t, last)
			want := s.Ending
			if got := text(one(t, doc, "status", has("role", "status"))); got != want.Status {
				t.Errorf("status %q, want %q", got, want.Status)
			}
			if want.Who != "" {
				if got := text(one(t, doc, "who", has("class", "who"))); got != "· "+want.Who {
					t.Errorf("who %q, want %q", got, want.Who)
				}
			}
			if warned := find(doc, has("id", warningsID)); (len(warned) == 1) != (last.Warned > 0) || len(warned) == 1 && text(warned[0]) != "Show "+warnings(last.Warned) {
				t.Errorf("%d warnings, the status shows %d buttons", last.Warned, len(warned))
			}
			if detail := text(one(t, doc, "the run detail", has("class", "run-detail"))); strings.Contains(detail, "still open") {
				t.Errorf("closed, the run detail says %q", detail)
			}
			alerts := find(doc, has("role", "alert"))
			if (len(alerts) == 1) != (want.Status == "Failed") || len(alerts) > 1 {
				t.Fatalf("%d alerts for a %s run", len(alerts), want.Status)
			}
			if len(alerts) == 1 {
				says := text(alerts[0])
				if !strings.Contains(says, want.Reason) || !strings.Contains(says, "Decided by lifecycle rule 4: a broken AG-UI 1.x rule") && strings.Contains(says, "rule 4") {
					t.Errorf("alert %q lacks %q, or what rule 4 is", says, want.Reason)
				}
				quoted := strings.Contains(says, "Broke AG-UI 1.x (")
				if quoted != (want.Who == "the stream") {
					t.Errorf("alert %q: quotes a rule %v for %s", says, quoted, want.Who)
				}
				if ours := strings.Contains(says, "This demo"); ours != (want.Who == "this demo") {
					t.Errorf("alert %q: says it is this demo's %v for %s", says, ours, want.Who)
				}
			}
			if says := text(one(t, doc, "the scenario line", has("id", "scenario-says"))); s.Rule.Quote != "" && !strings.Contains(says, s.Rule.Page+"): "+s.Rule.Quote) {
				t.Errorf("the scenario line %q does not quote %s", says, s.Rule.Page)
			}
			notices := find(doc, has("class", "notice"))
			if want := want.Who == "the agent" && want.Status == "Cancelled"; (len(notices) == 1) != want {
				t.Errorf("%d notices", len(notices))
			}
			questions := find(doc, has("id", questionID))
			if (len(questions) == 1) != (want.Status == "Interrupted") {
				t.Errorf("%d questions", len(questions))
			}
			if len(questions) == 1 {
				buttonNamed(t, questions[0], "Cancel request")
			}
			if s.Group == fixtures.Warn && s.Ending.Status == "Completed" {
				warned := find(renderArrivalLog(t, models[len(models)-1]), has("class", "arrival-warnings"))
				if len(warned) == 0 || !strings.HasPrefix(text(warned[0]), "Warning: ") {
					t.Error("no warning in the arrival log")
				}
			}
		})
	}
}

// Between RUN_FINISHED and the stream's end, the screen says the stream is
// still open: an event after the end can still fail the run.
func TestFinishedWhileTheStreamIsOpen(t *testing.T) {
	for _, m := range play(t, "events-after-finish") {
		if _, done := m.Lifecycle.(core.Completed); done {
			doc := render(t, m)
			if got := text(one(t, doc, "the run detail", has("class", "run-detail"))); got != "run-1 · finished · stream still open" {
				t.Errorf("run detail %q", got)
			}
			return
		}
	}
	t.Fatal("the run never showed Completed")
}

// Scripts the server loaded from files are offered in a group of their
// own, described like the built-in ones; empty groups are not offered.
func TestScriptsFromFilesHaveTheirGroup(t *testing.T) {
	offered := catalogue.Catalogue{
		{Name: "normal", Group: catalogue.Demo, Description: "The demo's run.", ThisDemo: "Shows it."},
		{Name: "recorded", Group: catalogue.File, Description: "A stream recorded from my agent."},
	}
	m, _ := core.Update(core.NewModel("t"), core.ChoseScenario{Name: "recorded"})
	doc := renderDemo(t, &demo{model: m, scenarios: offered, path: livePath})
	var labels []string
	for _, g := range find(doc, tag("optgroup")) {
		labels = append(labels, dropOK(attr(g, "label"))+": "+text(g))
	}
	if strings.Join(labels, "|") != "Scenarios: normal|From the server's files: recorded" {
		t.Errorf("groups %q", labels)
	}
	if says := text(one(t, doc, "the scenario line", has("id", "scenario-says"))); says != "A stream recorded from my agent." {
		t.Errorf("scenario line %q", says)
	}
}

// A crowd's marks are written as markup: an agent's id is text in an
// attribute, whatever it holds. (The page is checked by its chunks alone:
// go-app's own server-side encoder does not escape attribute values, and
// the server only ever prerenders the page before any data.)
func TestCrowdMarkupEscapesIDs(t *testing.T) {
	hostile := `x"><script>alert(1)</script><g data-service-id="y` + "&amp;'"
	services := []core.Service{
		{ID: "a", Name: "A", Series: core.CoreSeries, Volume: 10, Latency: 20},
		{ID: hostile, Name: "B", Series: core.PlatformSeries, Volume: 30, Latency: 40},
	}
	baseline := map[string]core.Service{hostile: {ID: hostile, Series: core.PlatformSeries, Volume: 1, Latency: 2}}
	area := chart.NewArea(600)
	for chunk, last := range map[app.UI]string{
		&markChunk{In: &chunkInput{services: services, filter: core.All, area: area}}:                         hostile,
		&markChunk{In: &chunkInput{services: services, filter: core.All, area: area, selected: hostile}}:      "a", // drawn over the crowd, by go-app
		&baselineChunk{In: &chunkInput{services: services, baseline: baseline, filter: core.All, area: area}}: hostile,
	} {
		doc, err := html.Parse(strings.NewReader("<svg>" + app.HTMLString(chunk) + "</svg>"))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(find(doc, tag("script"))); n != 0 {
			t.Fatalf("%d script elements", n)
		}
		var ids []string
		for _, n := range find(doc, func(n *html.Node) bool {
			return dropOK(attr(n, "data-service-id")) != "" || dropOK(attr(n, "data-baseline-for")) != ""
		}) {
			ids = append(ids, dropOK(attr(n, "data-service-id"))+dropOK(attr(n, "data-baseline-for")))
		}
		if len(ids) == 0 || ids[len(ids)-1] != last {
			t.Errorf("ids %q", ids)
		}
	}
}

// The stylesheet gives a virtualised row the height the table places rows
// by.
func TestRowHeightMatchesTheStylesheet(t *testing.T) {
	css, err := os.ReadFile("../../web/agent-analysis.css")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("tbody tr[data-service-id] { height: %grem; } /* ui.rowRem */", rowRem)
	if !strings.Contains(string(css), want) {
		t.Errorf("the stylesheet lacks %q", want)
	}
}

// The rows in the page are those in view and rowMargin more on each side;
// at the top of the list, only below.
func TestTableWindow(t *testing.T) {
	tbl := &serviceTable{viewport: 480, rem: 16} // rows of 60 px: 8 in view
	for _, tt := range []struct {
		scrollTop   float64
		first, last int
	}{
		{0, 0, 8 + rowMargin},
		{60 * 5, 0, 5 + 8 + rowMargin},
		{60 * 100, 100 - rowMargin, 100 + 8 + rowMargin},
		{60 * 995, 995 - rowMargin, 1000},
		{60 * 5000, 999, 1000}, // scrolled past a list that shrank: its last row
	} {
		tbl.scrollTop = tt.scrollTop
		if first, last := tbl.window(1000); first != tt.first || last != tt.last {
			t.Errorf("scrolled %.0f px: rows [%d, %d), want [%d, %d)", tt.scrollTop, first, last, tt.first, tt.last)
		}
	}
}

// An interrupted run asks the agent's question with Approve, Reject and
// Cancel request, says what answering does, and nothing else says the
// demo cannot resume.
func TestInterruptedScreen(t *testing.T) {
	models := play(t, "approval")
	doc := render(t, models[len(models)-1])
	if s := text(one(t, doc, "status", has("role", "status"))); s != "Interrupted" {
		t.Errorf("status %q", s)
	}
	if d := text(one(t, doc, "the run detail", has("class", "run-detail"))); d != "run-1 · interrupted: the agent waits for your answer" {
		t.Errorf("run detail %q", d)
	}
	q := one(t, doc, "the question", has("id", questionID))
	if dropOK(attr(q, "tabindex")) != "-1" || dropOK(attr(q, "aria-labelledby")) != "question-title" {
		t.Errorf("the question cannot take focus or has no name: %v", q.Attr)
	}
	says := text(q)
	for _, want := range []string{"The agent asks", "Roll back API's deploy? Its p95 rose from 60 to 145 ms.", "Answering resumes the run as a new run on the same thread: the data, filter, selection and baseline carry over."} {
		if !strings.Contains(says, want) {
			t.Errorf("the question %q lacks %q", says, want)
		}
	}
	var names []string
	for _, b := range find(q, tag("button")) {
		if _, disabled := attr(b, "disabled"); disabled {
			t.Errorf("%s is disabled", text(b))
		}
		names = append(names, text(b))
	}
	if strings.Join(names, "|") != "Approve|Reject|Cancel request" {
		t.Errorf("buttons %q", names)
	}
	if strings.Contains(text(doc), "not part of this demo") {
		t.Error("the screen still says resuming is not part of the demo")
	}
	if got := enabled(t, doc); got != [3]bool{true, false, false} {
		t.Errorf("Run, Cancel, Recover enabled: %v", got)
	}

	// Expired when it came: Cancel request only, and a line saying when.
	models = play(t, "expired-interrupt")
	q = one(t, render(t, models[len(models)-1]), "the question", has("id", questionID))
	if n := find(q, tag("button")); len(n) != 1 || text(n[0]) != "Cancel request" {
		t.Errorf("an expired question offers %d buttons", len(n))
	}
	if !strings.Contains(text(q), "This request expired at 1 Jan 2026, 00:00 UTC: it can no longer be approved or rejected, only cancelled.") {
		t.Errorf("the expired question says %q", text(q))
	}
}

// An agent's words are quoted within bounds, however many it sends.
func TestAQuestionIsQuotedWithinBounds(t *testing.T) {
	long := strings.Repeat("Roll back? ", 10000)
	m, _ := core.Update(core.NewModel("thread-1"), core.ClickedRun{})
	models, err := fixturetest.Feed(m, m.Run, []byte(`{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1"}`),
		[]byte(`{"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-1","outcome":{"type":"interrupt","interrupts":[`+
			`{"id":"i","reason":"`+strings.Repeat("r", 5000)+`","message":"`+long+`","expiresAt":"`+strings.Repeat("9", 5000)+`"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	asks := text(one(t, render(t, models[len(models)-1]), "the agent's words", has("class", "asks")))
	if len(asks) > maxAsks+len("…") || !strings.HasPrefix(asks, "Roll back? Roll back?") || !strings.HasSuffix(asks, "…") {
		t.Errorf("quoted %d bytes: %.40q…", len(asks), asks)
	}
	q := text(one(t, render(t, models[len(models)-1]), "the question", has("id", questionID)))
	if len(q) > 2*maxAsks {
		t.Errorf("the question box holds %d bytes", len(q))
	}
}

// After the answer, the resumed run's result: approved, API's p95 is back
// to 60 ms against the thread's first snapshot; rejected, nothing changed.
func TestResumedScreens(t *testing.T) {
	models := play(t, "approval")
	m := models[len(models)-1]
	for choice, want := range map[core.Choice]string{core.Approve: "60", core.Reject: "145", core.CancelRequest: "145"} {
		c := map[core.Choice]string{core.Approve: "approved", core.Reject: "rejected", core.CancelRequest: "cancelled"}[choice]
		after := fixturetest.MustAnswer(t, m, choice, c)
		doc := render(t, after[len(after)-1])
		if s := text(one(t, doc, "status", has("role", "status"))); s != "Completed" {
			t.Errorf("%s: status %q", c, s)
		}
		if len(find(doc, has("id", questionID))) != 0 || len(find(doc, has("id", warningsID))) != 0 {
			t.Errorf("%s: a question or a warning after the resume", c)
		}
		api := one(t, doc, "API's row", func(n *html.Node) bool { return n.Data == "tr" && dropOK(attr(n, "data-service-id")) == "api" })
		if cells := find(api, tag("td")); len(cells) < 2 || text(cells[1]) != want {
			t.Errorf("%s: API's row %q, want p95 %s", c, text(api), want)
		}
		if d := text(one(t, doc, "the run detail", has("class", "run-detail"))); d != "run-2 · finished" {
			t.Errorf("%s: run detail %q", c, d)
		}
	}
}

// A run the engine warned about says so on the status, with a button that
// names what it shows.
func TestWarningsOnTheStatus(t *testing.T) {
	models := play(t, "newer-version")
	doc := render(t, models[len(models)-1])
	status := one(t, doc, "the status line", has("class", "status done"))
	if got := text(status); got != "Completed · Show 1 warning" {
		t.Errorf("status line %q", got)
	}
	b := one(t, doc, "the warnings button", has("id", warningsID))
	if b.Data != "button" || dropOK(attr(b, "type")) != "button" {
		t.Errorf("warnings control %s", b.Data)
	}
	// In the arrival log, the warned event can take focus.
	warned := find(renderArrivalLog(t, models[len(models)-1]), has("class", "arrival info warned"))
	if len(warned) != 1 || dropOK(attr(warned[0], "tabindex")) != "-1" || !strings.Contains(dropOK(attr(warned[0], "aria-label")), "1 warning") {
		t.Errorf("%d warned events in the arrival log", len(warned))
	}
}

// The invalid run is this demo's refusal, not a broken protocol: the
// status says who, the alert quotes 1.x's MAY as the permission it is and
// says what rule 4 is.
func TestInvalidIsTheDemosRefusal(t *testing.T) {
	doc := render(t, modelAfter(t, "invalid", 4))
	if got := text(one(t, doc, "who", has("class", "who"))); got != "· this demo" {
		t.Errorf("who %q", got)
	}
	if d := text(one(t, doc, "the run detail", has("class", "run-detail"))); d != "run-1 · this demo refused it" {
		t.Errorf("run detail %q", d)
	}
	says := text(one(t, doc, "the alert", has("role", "alert")))
	for _, want := range []string{
		"This demo's choice, not a broken rule. AG-UI 1.x (basic/patterns/snapshots) permits either: a client MAY continue with its prior value rather than failing the run",
		"Decided by lifecycle rule 4: a broken AG-UI 1.x rule fails the run",
	} {
		if !strings.Contains(says, want) {
			t.Errorf("alert %q lacks %q", says, want)
		}
	}
	if strings.Contains(says, "Broke AG-UI") || strings.Contains(says, "broke AG-UI") {
		t.Errorf("alert %q calls the demo's choice a broken rule", says)
	}
	// A state that is not {services: [...]} is one this demo cannot draw.
	m, _ := core.Update(core.NewModel("thread-1"), core.ClickedRun{})
	models, err := fixturetest.Feed(m, m.Run, []byte(`{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1"}`), []byte(`{"type":"STATE_SNAPSHOT","snapshot":{"count":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	doc = render(t, models[len(models)-1])
	if d := text(one(t, doc, "the run detail", has("class", "run-detail"))); d != "run-1 · this demo draws only {services: [...]} state" {
		t.Errorf("run detail %q", d)
	}
	if says := text(one(t, doc, "the alert", has("role", "alert"))); !strings.Contains(says, "AG-UI 1.x lets a state be any JSON value: the stream broke no rule") {
		t.Errorf("alert %q", says)
	}
}

// A resume this demo's own check refused before sending names no AG-UI
// rule: there is none to quote.
func TestARefusalWithoutARule(t *testing.T) {
	m := core.NewModel("thread-1")
	m.Lifecycle = core.Failed{RunID: "run-2", Kind: core.Refusal, DecidedBy: core.RuleRecover, Reason: "the answer was not sent: resume: no entry"}
	says := text(one(t, render(t, m), "the alert", has("role", "alert")))
	if !strings.Contains(says, "refused it before anything was sent") || strings.Contains(says, "()") || strings.Contains(says, "“”") {
		t.Errorf("alert %q", says)
	}
}
