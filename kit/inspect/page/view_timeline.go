package page

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// timelineBoxID is the timeline's scroll box.
const timelineBoxID = "timeline-box"

// rowRem is a timeline row's height, in rem (web/inspector.css says the same).
const rowRem = 2

// timeline is the run's events, one row each, drawn only where the box
// shows them (Window): a stepper, and a box that is one tab stop whose
// keys step through the events.
type timeline struct {
	app.Compo
	RunID     string
	Rows      []runs.Event // the window's rows
	First     int          // the first row's place among all
	Total     int          // rows read: events and comments
	Count     int          // events read
	More      bool
	Cursor    int
	RowPx     float64
	Truncated bool
	Current   *runs.Event // the cursor's event
	Whole     map[string]bool
	send      func(Msg)
	at        int     // the row the box's top was last said to be at
	height    float64 // and the box's height
	rem       float64 // a rem in CSS px, read once
	full      bool    // the box was at its greatest height when last measured
}

func (t *timeline) OnMount(ctx app.Context) {
	ctx.Defer(func(ctx app.Context) {
		if t.measure(true) {
			ctx.Dispatch(nil) // draw what it changed: no handler is running
		}
	})
}

// OnUpdate measures again once drawn while the box still grows with its
// rows; a full box keeps its height (measuring makes the browser lay the
// page out at once).
func (t *timeline) OnUpdate(ctx app.Context) {
	if t.full {
		return
	}
	ctx.Defer(func(ctx app.Context) {
		if t.measure(false) {
			ctx.Dispatch(nil)
		}
	})
}

// measure tells Update where the box is; only when it moved by a row or
// more, or changed size, unless told. It reports whether it told.
func (t *timeline) measure(always bool) bool {
	box := app.Window().GetElementByID(timelineBoxID)
	if !box.Truthy() {
		return false
	}
	if t.rem == 0 {
		t.rem = rootFontPx()
	}
	rowPx := rowRem * t.rem
	top := box.Get("scrollTop").Float()
	height := box.Get("clientHeight").Float()
	t.full = box.Get("scrollHeight").Float() > height+1
	if head := box.Call("querySelector", "thead"); head.Truthy() {
		height -= head.Get("offsetHeight").Float()
	}
	at := int(top / rowPx)
	if !always && at == t.at && height == t.height && rowPx == t.RowPx {
		return false
	}
	t.at, t.height = at, height
	t.send(Scrolled{Top: top, Height: height, RowPx: rowPx})
	return true
}

// onScroll draws the rows the box moved to. (A handler that changes the
// Model lets go-app update the page: PreventUpdate would stop it.)
func (t *timeline) onScroll(ctx app.Context, e app.Event) {
	if !t.measure(false) {
		ctx.PreventUpdate()
	}
}

// rootFontPx is a rem in CSS pixels, as the browser has it.
func rootFontPx() float64 {
	size := app.Window().Call("getComputedStyle", app.Window().Get("document").Get("documentElement")).Get("fontSize").String()
	px, err := strconv.ParseFloat(strings.TrimSuffix(size, "px"), 64)
	if err != nil || px <= 0 {
		return 16
	}
	return px
}

// scrollTimeline moves the box to top, where Update revealed the cursor.
func scrollTimeline(top float64) {
	if box := app.Window().GetElementByID(timelineBoxID); box.Truthy() {
		box.Set("scrollTop", top)
	}
}

func (t *timeline) Render() app.UI {
	rowPx := t.RowPx
	if rowPx <= 0 {
		rowPx = rowRem * 16
	}
	last := t.First + len(t.Rows)
	note := count(t.Count, "event")
	if comments := t.Total - t.Count; comments > 0 {
		note += ", " + count(comments, "comment")
	}
	if t.More {
		note += ", reading more…"
	}
	if t.Truncated {
		note += " (the run's first 16 MiB)"
	}
	return app.Section().Class("card", "timeline").Aria("labelledby", "events-title").Body(
		app.H2().ID("events-title").Body(app.Text("Events "), app.Span().Class("count").Text("("+note+")")),
		t.stepper(),
		app.Div().ID(timelineBoxID).Class("timeline-box").TabIndex(0).Attr("role", "group").
			Aria("label", "Events of run "+t.RunID+": Up and Down, or k and j, step; Home and End go to the ends").
			Aria("keyshortcuts", "ArrowDown ArrowUp J K Home End PageDown PageUp").
			OnKeyDown(t.onKey).OnScroll(t.onScroll).OnClick(t.onClick).Body(
			app.Table().Class("events").Aria("label", "Events of run "+t.RunID).Body(
				app.THead().Body(app.Tr().Body(
					app.Th().Scope("col").Class("num").Text("#"),
					app.Th().Scope("col").Class("num").Text("Time"),
					app.Th().Scope("col").Text("Type"),
					app.Th().Scope("col").Class("num").Text("Size"),
					app.Th().Scope("col").Text("Marks"),
				)),
				app.TBody().Body(
					app.If(t.First > 0, func() app.UI { return spacer("above", float64(t.First)*rowPx) }),
					app.Range(t.Rows).Slice(func(i int) app.UI { return t.row(t.Rows[i]) }),
					app.If(last < t.Total, func() app.UI { return spacer("below", float64(t.Total-last)*rowPx) }),
				),
			),
		),
		app.If(t.Total == 0, func() app.UI { return app.P().Class("hint").Text("No events read yet.") }),
		eventDetail(t.Current, t.Whole, t.send),
	)
}

func (t *timeline) stepper() app.UI {
	position := "Before the first event: the input's state"
	if t.Cursor >= 0 {
		position = fmt.Sprintf("At event #%d of %d", t.Cursor, t.Count)
	}
	step := func(label, short string, by int, to Jump, disabled bool) app.UI {
		b := app.Button().Type("button").DataSet("by", by).DataSet("to", int(to)).OnClick(t.onStep).Aria("keyshortcuts", short).Text(label)
		if disabled {
			b = b.Disabled(true)
		}
		return b
	}
	atStart, atEnd := t.Cursor < 0, t.Cursor >= t.Count-1
	return app.Div().Class("stepper").Body(
		app.Div().Class("group", "segmented").Attr("role", "group").Aria("label", "Step through the events").Body(
			step("First", "Home", 0, First, atStart),
			step("Previous", "K", -1, NoJump, atStart),
			step("Next", "J", 1, NoJump, atEnd),
			step("Last", "End", 0, Final, atEnd),
		),
		app.P().Class("position").Aria("live", "polite").Text(position),
	)
}

func (t *timeline) onStep(ctx app.Context, e app.Event) {
	data := ctx.JSSrc().Get("dataset")
	by, _ := strconv.Atoi(data.Get("by").String())
	to, _ := strconv.Atoi(data.Get("to").String())
	t.send(Stepped{By: by, To: Jump(to)})
}

// onKey steps from the box: the page draws the step.
func (t *timeline) onKey(ctx app.Context, e app.Event) {
	if e.Get("altKey").Bool() || e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() {
		ctx.PreventUpdate()
		return
	}
	page := 10
	if t.RowPx > 0 {
		if box := app.Window().GetElementByID(timelineBoxID); box.Truthy() {
			page = max(1, int(box.Get("clientHeight").Float()/t.RowPx)-2)
		}
	}
	var msg Msg
	switch e.Get("key").String() {
	case "ArrowDown", "j":
		msg = Stepped{By: 1}
	case "ArrowUp", "k":
		msg = Stepped{By: -1}
	case "PageDown":
		msg = Stepped{By: page}
	case "PageUp":
		msg = Stepped{By: -page}
	case "Home":
		msg = Stepped{To: First}
	case "End":
		msg = Stepped{To: Final}
	default:
		ctx.PreventUpdate()
		return
	}
	e.PreventDefault() // the box would scroll by itself
	t.send(msg)
}

// onClick selects the event of the row clicked (a rule's link opens too).
func (t *timeline) onClick(ctx app.Context, e app.Event) {
	row := e.Get("target").Call("closest", "tr[data-index]")
	if !row.Truthy() {
		ctx.PreventUpdate()
		return
	}
	if i, err := strconv.Atoi(row.Get("dataset").Get("index").String()); err == nil {
		t.send(ChoseEvent{Index: i})
	}
}

func (t *timeline) row(ev runs.Event) app.UI {
	if ev.Index < 0 {
		return app.Tr().Class("comment").Body(
			app.Td().Class("num").Text(""),
			app.Td().Class("num").Text(ms(ev.AtMs)),
			app.Td().ColSpan(3).Body(app.Span().Class("comment-text").Text(": "+ev.Comment)),
		)
	}
	tr := app.Tr().DataSet("index", ev.Index).DataSet("type", ev.Type)
	classes := []string{"event"}
	if ev.Index == t.Cursor {
		tr = tr.Aria("current", "true")
		classes = append(classes, "current")
	}
	for _, m := range ev.Marks {
		if m.Fatal {
			classes = append(classes, "fatal")
		} else {
			classes = append(classes, "warned")
		}
	}
	typ := ev.Type
	if typ == "" {
		typ = "(no type)"
	}
	return tr.Class(classes...).Body(
		app.Td().Class("num").Text("#"+strconv.Itoa(ev.Index)),
		app.Td().Class("num").Text(ms(ev.AtMs)),
		app.Td().Class("type").Text(typ),
		app.Td().Class("num").Text(bytesText(int64(ev.Size))),
		app.Td().Class("marks").Body(
			app.Range(ev.Marks).Slice(func(i int) app.UI { return markInline(ev.Marks[i]) }),
		),
	)
}

// markInline is a mark in its row: whether fatal, the rule's link, its meaning.
func markInline(m runs.Mark) app.UI {
	kind := "warning"
	if m.Fatal {
		kind = "fatal"
	}
	return app.Span().Class("mark", kind).DataSet("rule", m.Rule).Body(
		app.Span().Class("mark-kind").Text(kind+" "),
		ruleLink(m.Rule, m.Page),
		app.Span().Class("meaning").Text(" "+m.Meaning),
	)
}

// spacer stands for rows not drawn, so that the box scrolls as if they
// were: its height is the cell's height attribute (the Content-Security-
// Policy allows no style attribute).
func spacer(where string, height float64) app.UI {
	return app.Tr().Class("spacer", where).Aria("hidden", true).Body(
		app.Td().ColSpan(5).Attr("height", strconv.FormatFloat(height, 'f', 0, 64)),
	)
}

// eventDetail is the cursor's event in full: its marks, each with the
// rule's page, and its JSON as it came.
func eventDetail(ev *runs.Event, whole map[string]bool, send func(Msg)) app.UI {
	if ev == nil {
		return app.Div().Class("event-detail").Body(app.P().Class("hint").Text("Select an event to see it whole."))
	}
	text, note := clipped("event:"+strconv.Itoa(ev.Index), indent(ev.JSON), whole, send)
	return app.Div().Class("event-detail").Body(
		app.H3().ID("event-title").Text(fmt.Sprintf("Event #%d: %s", ev.Index, ev.Type)),
		app.If(len(ev.Marks) > 0, func() app.UI {
			return app.Ul().Class("marks-full").Body(
				app.Range(ev.Marks).Slice(func(i int) app.UI {
					m := ev.Marks[i]
					kind := "Warning"
					if m.Fatal {
						kind = "Fatal"
					}
					return app.Li().Class("mark", map[bool]string{true: "fatal", false: "warning"}[m.Fatal]).Body(
						app.Strong().Text(kind+": "), ruleLink(m.Rule, m.Page),
						app.Text(" ("+m.Meaning+"): "+m.Text),
					)
				}),
			)
		}),
		note,
		app.Pre().Class("json").TabIndex(0).Aria("labelledby", "event-title").Text(text),
	)
}
