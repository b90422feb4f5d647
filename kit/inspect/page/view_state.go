package page

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// maxDepthClass bounds the indentation classes web/inspector.css has.
const maxDepthClass = 12

// stateView is the state after the cursor's event as a tree, the places
// the event changed highlighted (and said), and why an update was refused.
type stateView struct {
	app.Compo
	At      *runs.At
	Cursor  int
	Reading bool // At is for an earlier cursor: the cursor's is being read
	Open    map[string]bool
	send    func(Msg)

	parsed *runs.At // the At tree was read from
	tree   Node
	bad    error
}

func (v *stateView) Render() app.UI {
	head := app.H2().ID("state-title").Text("State")
	at := v.At
	if at == nil {
		return app.Section().Class("card", "state").Aria("labelledby", "state-title").Body(head, app.P().Class("hint").Text("Reading the state…"))
	}
	if v.parsed != at {
		v.parsed = at
		v.tree, v.bad = ParseTree(at.State)
	}
	where := "Before the first event: the input's state."
	if at.Index >= 0 {
		where = fmt.Sprintf("After event #%d.", at.Index)
		switch n := len(at.Changed); {
		case at.Refused != "":
		case n == 0:
			where += " It changed nothing."
		case n == 1 && at.Changed[0] == "":
			where += " It replaced the whole state."
		default:
			where += " It changed " + count(n, "place") + ", marked changed below."
		}
	}
	switch {
	case v.Reading:
		where += " Reading the state at the selected event…"
	case at.Index < v.Cursor:
		where = fmt.Sprintf("After event #%d: the run broke a rule at event #%d and the engine read no further; the state is as it stood there.", v.Cursor, at.Index)
	}
	body := []app.UI{head, app.P().Class("state-at").Text(where)}
	if at.Refused != "" {
		body = append(body, app.P().Class("refused").Text("This event's update was refused: "+at.Refused+". The state is as it was."))
	}
	if v.bad != nil {
		body = append(body, app.Pre().Class("json").TabIndex(0).Aria("label", "The state, as JSON").Text(string(at.State)))
	} else {
		lines, more := Lines(v.tree, at.Changed, v.Open)
		body = append(body, app.Ul().Class("tree").Aria("label", "The state, as a tree").Body(
			app.Range(lines).Slice(func(i int) app.UI { return v.line(lines[i]) }),
		))
		if more > 0 {
			body = append(body, app.P().Class("hint").Text(fmt.Sprintf("%d more lines not drawn: close a branch to see others.", more)))
		}
	}
	return app.Section().Class("card", "state").Aria("labelledby", "state-title").DataSet("at", at.Index).Body(body...)
}

func (v *stateView) line(l Line) app.UI {
	key := l.Key
	if l.Depth == 0 {
		key = "state"
	}
	classes := []string{"line", "depth-" + strconv.Itoa(min(l.Depth, maxDepthClass))}
	if l.Changed {
		classes = append(classes, "changed")
	}
	var label app.UI
	if l.Branch {
		label = app.Button().Type("button").Class("toggle").Aria("expanded", l.Open).DataSet("pointer", l.Pointer).
			OnClick(v.toggle).Body(
			app.Span().Class("twisty").Aria("hidden", true).Text(map[bool]string{true: "▾", false: "▸"}[l.Open]),
			app.Span().Class("key").Text(key),
			app.Span().Class("summary").Text(" "+l.Text),
		)
	} else {
		label = app.Span().Class("leaf").Body(
			app.Span().Class("key").Text(key+": "),
			app.Span().Class("value").Text(l.Text),
		)
	}
	li := app.Li().Class(classes...).DataSet("pointer", l.Pointer).Body(
		label,
		app.If(l.Changed, func() app.UI { return app.Span().Class("badge", "changed-badge").Text("changed") }),
		app.If(l.Holds && !l.Open, func() app.UI { return app.Span().Class("badge", "holds-badge").Text("holds a change") }),
	)
	return li
}

func (v *stateView) toggle(ctx app.Context, e app.Event) {
	b := ctx.JSSrc()
	v.send(Toggled{Pointer: b.Get("dataset").Get("pointer").String(), Open: b.Call("getAttribute", "aria-expanded").String() != "true"})
}
