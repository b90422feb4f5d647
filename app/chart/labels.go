package chart

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"unicode/utf8"
)

// Layout is the chart for one model and one area: every mark, and where
// each piece of text goes so that no label is crossed by a connector or
// the budget line, none covers a mark or another label, and none leaves
// the plot.
type Layout struct {
	Area   Area
	Marks  []Mark
	Budget Label
	Labels []Label // one per mark, in the same order; empty in a crowd
	Note   *Label  // asks for a run while there is no data
}

// Label is a text placed on the chart: one or more lines, anchored at X
// (start, middle or end), the first baseline at Y.
type Label struct {
	Lines  []string
	X, Y   float64
	Anchor string
	Size   float64
	Box    Box // the room the text takes, estimated on the generous side
}

// MaxLabels is the most marks that get their names written beside them;
// a crowd gets none (each mark's title and the table name them all).
const MaxLabels = 24

// Lay places the text that goes with the marks: their names (or, before
// any data, the note asking for a run) first, then the budget label
// wherever is left.
func Lay(a Area, marks []Mark, hasData bool) Layout {
	l := Layout{Area: a, Marks: marks}
	l.Labels = make([]Label, 0, len(l.Marks))
	if len(l.Marks) > MaxLabels {
		l.Labels = l.Labels[:len(l.Marks)]
		l.Budget = BudgetLabel(a)
		return l
	}
	yb := a.Y.Px(BudgetMs)
	p := placer{bounds: a.Plot(), segments: []Segment{{Point{a.X.From, yb}, Point{a.X.To, yb}}}}
	for _, mk := range l.Marks {
		p.boxes = append(p.boxes, around(mk.X, mk.Y, mk.reach()))
		if b := mk.Baseline; b != nil {
			p.boxes = append(p.boxes, around(b.X, b.Y, BaselineRadius*1.25+1))
			p.segments = append(p.segments, Segment{*b, Point{mk.X, mk.Y}})
		}
	}
	if !hasData {
		note := p.place(noteCandidates(a))
		p.boxes = append(p.boxes, note.Box)
		l.Note = &note
	}
	for _, mk := range l.Marks {
		label := p.place(markCandidates(mk))
		p.boxes = append(p.boxes, label.Box)
		l.Labels = append(l.Labels, label)
	}
	p.segments = p.segments[1:] // the budget label sits by its own line
	l.Budget = p.place(budgetCandidates(a))
	return l
}

// The budget label says what the line is, just above it or just below it
// (a little further off where a mark sits on the line): at the right end,
// the left end, or anywhere between; where the full line does not fit it
// takes two lines.
func budgetCandidates(a Area) iter.Seq[Label] {
	return func(yield func(Label) bool) {
		yb := a.Y.Px(BudgetMs)
		const inset, step = 6, 8
		for _, gap := range []float64{3, 8, 14} {
			for _, lines := range [][]string{
				{fmt.Sprintf("%d ms budget, not an SLO", BudgetMs)},
				{fmt.Sprintf("%d ms budget", BudgetMs), "not an SLO"},
				{fmt.Sprintf("%d ms budget", BudgetMs)},
				{"budget"},
			} {
				h := textHeight(len(lines), budgetSize)
				for _, top := range []float64{yb - gap - h, yb + gap} {
					if !yield(newLabel(lines, a.X.To-inset, top, "end", budgetSize, false)) {
						return
					}
					for x := a.X.From + inset; x < a.X.To; x += step {
						if !yield(newLabel(lines, x, top, "start", budgetSize, false)) {
							return
						}
					}
				}
			}
		}
	}
}

// The note before any data sits in the middle of the band under the budget
// line, else over it, on as few lines as fit the plot's width.
func noteCandidates(a Area) iter.Seq[Label] {
	return func(yield func(Label) bool) {
		x := (a.X.From + a.X.To) / 2
		for _, lines := range [][]string{
			{"No data yet: pick a scenario and press Run"},
			{"No data yet:", "pick a scenario and press Run"},
			{"No data yet:", "pick a scenario", "and press Run"},
		} {
			h := textHeight(len(lines), emptySize)
			for _, ms := range []float64{BudgetMs / 2, BudgetMs * 3 / 2} {
				if !yield(newLabel(lines, x, a.Y.Px(ms)-h/2, "middle", emptySize, false)) {
					return
				}
			}
		}
	}
}

// A mark's name goes right of it, else left, above, below or on a
// diagonal: the first place that is free.
func markCandidates(mk Mark) iter.Seq[Label] {
	name := []string{shortName(mk.Service.Name)}
	r, gap := mk.reach(), 4.0
	h := textHeight(1, labelSize)
	w := textWidth(name[0], labelSize, true)
	mid, above, below := mk.Y-h/2, mk.Y-r-gap-h, mk.Y+r+gap
	d := r * 0.7 // a diagonal clears the symbol's corner
	at := func(x, top float64, anchor string) Label { return newLabel(name, x, top, anchor, labelSize, true) }
	return slices.Values([]Label{
		at(mk.X+r+gap, mid, "start"),
		at(mk.X-r-gap, mid, "end"),
		at(mk.X, above, "middle"),
		at(mk.X, below, "middle"),
		at(mk.X+d, mk.Y-d-h, "start"),
		at(mk.X+d, mk.Y+d, "start"),
		at(mk.X-d, mk.Y-d-h, "end"),
		at(mk.X-d, mk.Y+d, "end"),
		at(mk.X+r+gap+w/2, above, "middle"),
		at(mk.X-r-gap-w/2, below, "middle"),
	})
}

// newLabel builds a label whose box's top edge is at top.
func newLabel(lines []string, x, top float64, anchor string, size float64, bold bool) Label {
	var w float64
	for _, line := range lines {
		w = max(w, textWidth(line, size, bold))
	}
	x0 := x
	switch anchor {
	case "middle":
		x0 = x - w/2
	case "end":
		x0 = x - w
	}
	return Label{
		Lines: lines, X: x, Y: top + ascent*size, Anchor: anchor, Size: size,
		Box: Box{X0: x0, Y0: top, X1: x0 + w, Y1: top + textHeight(len(lines), size)},
	}
}

// Text metrics, in ems, generous for DejaVu Sans and the usual system
// fonts: a label may take more room than it needs, never less.
const (
	ascent     = 0.93 // baseline below the top of the line
	LineHeight = 1.2
	charWidth  = 0.64
	boldWidth  = 0.74
)

func textHeight(lines int, size float64) float64 {
	return (float64(lines-1)*LineHeight + ascent + 0.25) * size
}

func textWidth(s string, size float64, bold bool) float64 {
	em := charWidth
	if bold {
		em = boldWidth
	}
	return float64(utf8.RuneCountInString(s))*em*size + 2
}

// shortName keeps a label short; the mark's title has the whole name.
func shortName(s string) string {
	const most = 18
	if utf8.RuneCountInString(s) <= most {
		return s
	}
	return string([]rune(s)[:most-1]) + "…"
}

// placer picks, for each label in turn, the first candidate that touches
// nothing placed so far; when every candidate touches something, the one
// that touches least.
type placer struct {
	bounds   Box
	boxes    []Box
	segments []Segment
}

func (p *placer) place(candidates iter.Seq[Label]) Label {
	var best Label
	least := math.Inf(1)
	for c := range candidates {
		cost := p.cost(c.Box)
		if cost == 0 {
			return c
		}
		if cost < least {
			best, least = c, cost
		}
	}
	return best
}

// cost is how badly a box collides: its surface outside the plot and over
// other boxes, and a fixed price for each line crossing it.
func (p *placer) cost(b Box) float64 {
	cost := b.Surface() - b.Intersect(p.bounds).Surface()
	for _, o := range p.boxes {
		cost += b.Intersect(o).Surface()
	}
	for _, s := range p.segments {
		if b.Crosses(s) {
			cost += 100
		}
	}
	return cost
}

// BudgetLabel is where the budget label goes in a crowd: its first place,
// wherever the marks are.
func BudgetLabel(a Area) Label {
	for l := range budgetCandidates(a) {
		return l
	}
	return Label{}
}
