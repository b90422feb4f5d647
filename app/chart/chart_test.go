package chart

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"

	core "github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/fixtures/fixturetest"
)

func TestTicks(t *testing.T) {
	if got := volumeDomain.Ticks(); !slices.Equal(got, []float64{0, 300, 600, 900, 1200, 1500}) {
		t.Errorf("volume ticks %v", got)
	}
	if got := latencyDomain.Ticks(); !slices.Equal(got, []float64{0, 50, 100, 150, 200}) {
		t.Errorf("latency ticks %v", got)
	}
	if got := (Domain{Min: 0, Max: 1, Step: 0.1}).Ticks(); len(got) != 11 {
		t.Errorf("float steps lose the last tick: %v", got)
	}
}

// The chart is drawn at the width of its box: a phone gets a compact
// area with fewer ticks, and nonsense widths get a usable area.
func TestAreas(t *testing.T) {
	tests := []struct {
		width, want float64
		compact     bool
		xTicks      int
	}{
		{730, 730, false, 6},
		{332.6, 332, true, 4},
		{262, 262, true, 4},
		{100, minWidth, true, 4},
		{1e9, maxWidth, false, 6},
		{0, defaultWidth, false, 6},
		{-5, defaultWidth, false, 6},
		{math.NaN(), defaultWidth, false, 6},
		{math.Inf(1), maxWidth, false, 6},
	}
	for _, tt := range tests {
		a := NewArea(tt.width)
		compact := a.Height == compactHeight
		if a.Width != tt.want || compact != tt.compact || len(a.X.Domain.Ticks()) != tt.xTicks {
			t.Errorf("NewArea(%v): width %v compact %v ticks %v", tt.width, a.Width, compact, a.X.Domain.Ticks())
		}
		if p := a.Plot(); p.X0 <= 0 || p.X1 >= a.Width || p.Y0 <= 0 || p.Y1 >= a.Height {
			t.Errorf("NewArea(%v): the plot %+v leaves no margin in %vx%v", tt.width, p, a.Width, a.Height)
		}
	}
}

func TestScales(t *testing.T) {
	a := NewArea(640)
	left, right, bottom, top := a.X.From, a.X.To, a.Y.From, a.Y.To
	tests := []struct {
		scale   Scale
		v, want float64
		clamped bool
	}{
		{a.X, 0, left, false},
		{a.X, 1500, right, false},
		{a.X, 750, (left + right) / 2, false},
		{a.X, 9000, right, true},
		{a.X, -5, left, true},
		{a.Y, 0, bottom, false}, // y grows downwards
		{a.Y, 200, top, false},
		{a.Y, 100, (bottom + top) / 2, false},
		{a.Y, 999, top, true},
	}
	for _, tt := range tests {
		if got := tt.scale.Px(tt.v); got != tt.want || tt.scale.Clamped(tt.v) != tt.clamped {
			t.Errorf("Px(%v) = %v (clamped %v), want %v (%v)", tt.v, got, tt.scale.Clamped(tt.v), tt.want, tt.clamped)
		}
	}
}

func TestMarks(t *testing.T) {
	w := core.NewWire([]core.Service{
		{ID: "auth", Name: "Auth", Series: core.PlatformSeries, Volume: 900, Latency: 35},
		{ID: "api", Name: "API", Series: core.CoreSeries, Volume: 1200, Latency: 145},
		{ID: "search", Name: "Search", Series: core.PlatformSeries, Volume: 410, Latency: 71},
		{ID: "hot", Name: "Hot", Series: core.CoreSeries, Volume: 10, Latency: 999},
	})
	m := core.NewModel("t")
	m.Wire = &w
	m.Baseline = map[string]core.Service{
		"auth": {ID: "auth", Volume: 900, Latency: 35},
		"api":  {ID: "api", Volume: 1200, Latency: 60},
	}
	m.Selected = "api"
	a := NewArea(640)

	marks := Marks(m, a)
	if len(marks) != 4 || marks[0].Service.ID != "auth" || marks[1].Service.ID != "api" {
		t.Fatalf("marks follow the Wire's order: %+v", marks)
	}
	if marks[0].Baseline != nil {
		t.Error("an unchanged service has a baseline mark")
	}
	if b := marks[1].Baseline; b == nil || b.X != marks[1].X || b.Y != a.Y.Px(60) {
		t.Errorf("API's baseline mark %+v", b)
	}
	if marks[2].Baseline != nil {
		t.Error("an added service has a baseline")
	}
	if !marks[1].Selected || marks[0].Selected {
		t.Error("selection")
	}
	if !marks[3].OffScale || marks[3].Y != a.Y.To {
		t.Errorf("999 ms must clamp to the top: %+v", marks[3])
	}

	m.Filter = core.OnlyPlatform
	if got := Marks(m, a); len(got) != 2 || got[0].Service.ID != "auth" || got[1].Service.ID != "search" {
		t.Errorf("filtered marks %+v", got)
	}
}

func TestBoxCrosses(t *testing.T) {
	b := Box{X0: 10, Y0: 10, X1: 20, Y1: 20}
	tests := []struct {
		s    Segment
		want bool
	}{
		{Segment{Point{0, 15}, Point{30, 15}}, true},  // straight through
		{Segment{Point{15, 0}, Point{15, 12}}, true},  // ends inside
		{Segment{Point{12, 12}, Point{14, 14}}, true}, // wholly inside
		{Segment{Point{0, 0}, Point{30, 30}}, true},   // diagonal
		{Segment{Point{0, 5}, Point{30, 5}}, false},   // above
		{Segment{Point{0, 10}, Point{30, 10}}, false}, // along the edge
		{Segment{Point{0, 20}, Point{10, 30}}, false}, // misses the corner
		{Segment{Point{0, 15}, Point{9, 15}}, false},  // stops short
		{Segment{Point{15, 25}, Point{15, 40}}, false},
	}
	for _, tt := range tests {
		if got := b.Crosses(tt.s); got != tt.want {
			t.Errorf("%+v crosses %+v: %v, want %v", tt.s, b, got, tt.want)
		}
	}
}

// chartStates is every model a run of any script shows, under each filter
// and each selection.
func chartStates(t *testing.T) []core.Model {
	var out []core.Model
	for _, script := range fixtures.All() {
		for _, m := range play(t, script.Name) {
			for _, f := range core.Filters {
				m, _ := core.Update(m, core.ClickedFilter{Filter: f})
				out = append(out, m)
				for _, s := range m.Visible() {
					selected, _ := core.Update(m, core.ClickedService{ID: s.ID})
					out = append(out, selected)
				}
			}
		}
	}
	return out
}

// No label is crossed by a connector or the budget line, none covers a
// mark or another label, and none leaves the plot: in every state of every
// script, at phone and desktop widths.
func TestLabelsAreClear(t *testing.T) {
	states := append(chartStates(t), core.NewModel("t")) // and before any data
	if len(states) < 500 {
		t.Fatalf("only %d states", len(states))
	}
	for _, width := range []float64{240, 262, 332, 358, 640, 730, 1200} {
		for _, m := range states {
			l := lay(m, NewArea(width))
			if (l.Note != nil) != (m.Wire == nil) {
				t.Fatalf("width %v, %d marks: note %v", width, len(l.Marks), l.Note)
			}
			if problem := clash(l); problem != "" {
				t.Fatalf("width %v, %s, filter %s, selected %q: %s", width, m.Lifecycle, m.Filter, m.Selected, problem)
			}
		}
	}
}

// clash names the first way a layout's text collides, "" if none does.
func clash(l Layout) string {
	a := l.Area
	yb := a.Y.Px(BudgetMs)
	lines := []Segment{{Point{a.X.From, yb}, Point{a.X.To, yb}}}
	var symbols []Box
	for _, mk := range l.Marks {
		symbols = append(symbols, around(mk.X, mk.Y, mk.reach()))
		if b := mk.Baseline; b != nil {
			lines = append(lines, Segment{*b, Point{mk.X, mk.Y}})
			symbols = append(symbols, around(b.X, b.Y, BaselineRadius))
		}
	}
	texts := append([]Label{l.Budget}, l.Labels...)
	if l.Note != nil {
		texts = append(texts, *l.Note)
	}
	for i, text := range texts {
		b := text.Box
		if b.Intersect(a.Plot()) != b {
			return text.Lines[0] + " leaves the plot"
		}
		for _, s := range lines {
			if b.Crosses(s) {
				return text.Lines[0] + " is crossed by a line"
			}
		}
		for _, s := range symbols {
			if b.Intersect(s).Surface() > 0 {
				return text.Lines[0] + " covers a mark"
			}
		}
		for _, other := range texts[i+1:] {
			if b.Intersect(other.Box).Surface() > 0 {
				return text.Lines[0] + " overlaps " + other.Lines[0]
			}
		}
	}
	return ""
}

// Beyond MaxLabels marks no name is written, but every mark keeps its
// (empty) label, so the chart still draws each one, and the budget label
// is there.
func TestCrowdHasNoNames(t *testing.T) {
	l := lay(crowd(MaxLabels+1), NewArea(730))
	if len(l.Marks) != MaxLabels+1 || len(l.Labels) != len(l.Marks) {
		t.Fatalf("%d marks, %d labels", len(l.Marks), len(l.Labels))
	}
	for i, label := range l.Labels {
		if len(label.Lines) != 0 {
			t.Errorf("mark %d is named %q in a crowd", i, label.Lines)
		}
	}
	if len(l.Budget.Lines) == 0 {
		t.Error("the budget line has no label")
	}
}

// crowd is n Core services bunched around the budget line.
func crowd(n int) core.Model {
	services := make([]core.Service, n)
	for i := range services {
		services[i] = core.Service{ID: fmt.Sprint("s", i), Name: fmt.Sprint("Service ", i), Series: core.CoreSeries,
			Volume: 600 + float64(i%5)*20, Latency: 90 + float64(i/5)*5}
	}
	w := core.NewWire(services)
	m := core.NewModel("t")
	m.Wire = &w
	return m
}

// A crowd where no label finds a free place: every candidate is tried.
// Lay keeps nothing between calls, so every run does the whole work.
func BenchmarkLayCrowded(b *testing.B) {
	m, a := crowd(MaxLabels), NewArea(730)
	b.ReportAllocs()
	// Under wasm, V8 compiles hot code again, optimised, only after many
	// runs: time the code as a page that has drawn for a while runs it,
	// not its first, slower passes (some 5 times slower here).
	if runtime.GOOS == "js" {
		for range 200 {
			lay(m, a)
		}
	}
	for b.Loop() {
		lay(m, a)
	}
}

// lay is the chart of a model, as the ui package draws it.
func lay(m core.Model, a Area) Layout { return Lay(a, Marks(m, a), m.Wire != nil) }

// play runs a script through Update as the runtime would and returns the
// model after Run and after each event delivered.
var play = fixturetest.MustPlay
