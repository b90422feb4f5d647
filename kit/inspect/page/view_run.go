package page

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// runView is the shown run: its header, its events, the state and the
// conversation after the selected one side by side, and its request.
func runView(s Shown, send func(Msg)) app.UI {
	if s.ID == "" {
		return app.Section().Class("card", "run-view", "empty-run").Aria("labelledby", "run-title").Body(
			app.H2().ID("run-title").Text("No run selected"),
			app.P().Class("hint").Text("Choose a run in the list to see its events, marked where the engine found a rule broken "+
				"or warned; the state after each event, with what it changed; and the conversation."),
		)
	}
	first, last := s.Window()
	at := s.At
	return app.Div().Class("run-view").DataSet("run", s.ID).Body(
		&runHead{Detail: s.Detail, Gone: s.Gone, ID: s.ID, send: send},
		&timeline{
			RunID: s.ID, Rows: s.Events[first:last], First: first, Total: len(s.Events), Count: len(s.Pos),
			More: s.ReadingEvents(), Cursor: s.Cursor, RowPx: s.Scroll.RowPx, Truncated: s.Detail != nil && s.Detail.Truncated, Current: s.Event(), Whole: s.Whole, send: send,
		},
		app.Div().Class("split").Body(
			&stateView{At: at, Cursor: s.Cursor, Reading: s.ReadingAt(), Open: s.Open, send: send},
			&talkView{At: at, Cursor: s.Cursor, Detail: s.Detail, Asked: s.Asked, Answer: s.Answer, Whole: s.Whole, send: send},
		),
		&requestView{Detail: s.Detail},
	)
}

// runHead says what the run is and how it ended, and offers it to copy.
type runHead struct {
	app.Compo
	ID     string
	Detail *runs.Detail
	Gone   bool
	send   func(Msg)
}

func (h *runHead) Render() app.UI {
	d := h.Detail
	title := "Run " + h.ID
	if d != nil {
		title += ": " + d.Name
	}
	body := []app.UI{app.H2().ID("run-title").Text(title)}
	if h.Gone {
		body = append(body, app.P().Class("gone").Text("The inspector no longer keeps this run (past -keep, or its memory bound): what was read stays here."))
	}
	if d == nil {
		return app.Section().Class("card", "run-head").Aria("labelledby", "run-title").Body(append(body, app.P().Class("hint").Text("Reading the run…"))...)
	}
	source := "live, through the proxy"
	if d.Source != "live" {
		source = "the file " + d.Source
	}
	facts := []app.UI{
		app.Dt().Text("Verdict"), app.Dd().Body(app.Span().Class("verdict", statusClass(string(d.Status))).DataSet("status", string(d.Status)).Text(Verdict(d.Run))),
		app.Dt().Text("Source"), app.Dd().Text(source),
		app.Dt().Text("Events"), app.Dd().Text(eventsText(d)),
	}
	if !d.Started.IsZero() {
		facts = append(facts, app.Dt().Text("Started"), app.Dd().Text(d.Started.Local().Format("2006-01-02 15:04:05")))
	}
	if d.Ending != "" {
		facts = append(facts, app.Dt().Text("Ending"), app.Dd().Class("ending").Text(d.Ending))
	}
	body = append(body, app.Dl().Class("facts").Body(facts...))
	if len(d.Failures) > 0 {
		body = append(body, app.H3().Text("Failures"), app.Ul().Class("failures").Body(
			app.Range(d.Failures).Slice(func(i int) app.UI { return failureItem(d.Failures[i]) }),
		))
	}
	if len(d.Notes) > 0 {
		body = append(body, app.H3().Text("Notes"), app.Ul().Class("notes").Body(
			app.Range(d.Notes).Slice(func(i int) app.UI { return app.Li().Text(d.Notes[i]) }),
		))
	}
	body = append(body, h.copyBar())
	return app.Section().Class("card", "run-head").Aria("labelledby", "run-title").Body(body...)
}

func eventsText(d *runs.Detail) string {
	s := count(d.Events, "event")
	if d.Warnings > 0 {
		s += ", " + count(d.Warnings, "warning")
	}
	if d.Truncated {
		s += " (the first kept: the rest past the inspector's 16 MiB a run were counted, not kept)"
	}
	return s
}

func failureItem(f runs.Failure) app.UI {
	where := "the run as a whole"
	if f.Event > 0 {
		where = fmt.Sprintf("event %d (index %d)", f.Event, f.Event-1)
	}
	if f.Field != "" {
		where += ", " + f.Field
	}
	return app.Li().Body(
		ruleLink(f.Rule, f.Page),
		app.Text(" at "+where+": "+f.Text),
	)
}

// ruleLink is a rule's id, linking to its spec page (a new tab that
// learns nothing of this page).
func ruleLink(rule, page string) app.UI {
	if page == "" || !(strings.HasPrefix(page, "https://") || strings.HasPrefix(page, "http://")) {
		return app.Code().Class("rule").Text(rule)
	}
	return app.A().Class("rule").Href(page).Target("_blank").Rel("noopener noreferrer").Text(rule)
}

// copyBar copies the run as a script, a capture or a check command, and
// downloads the first two.
func (h *runHead) copyBar() app.UI {
	base := "/api/runs/" + h.ID + "/"
	button := func(what Export) app.UI {
		return app.Button().Type("button").DataSet("copy", string(what)).OnClick(h.copy).Text("Copy " + what.Label())
	}
	return app.Div().Class("copy-bar").Attr("role", "group").Aria("label", "Copy or download run "+h.ID).Body(
		button(AsScript), button(AsCapture), button(AsCommand),
		app.A().Class("download").Href(base+"script").Attr("download", "").Text("Download script"),
		app.A().Class("download").Href(base+"capture").Attr("download", "").Text("Download capture"),
	)
}

func (h *runHead) copy(ctx app.Context, e app.Event) {
	h.send(ChoseCopy{What: Export(ctx.JSSrc().Get("dataset").Get("copy").String())})
}

// requestView is the request as sent: method, path, where it went, the
// header names (the inspector never has their values), the transport's
// figures, and the input.
type requestView struct {
	app.Compo
	Detail *runs.Detail
}

func (r *requestView) Render() app.UI {
	d := r.Detail
	body := []app.UI{app.H2().ID("request-title").Text("Request")}
	if d == nil {
		return app.Section().Class("card", "request").Aria("labelledby", "request-title").Body(append(body, app.P().Class("hint").Text("Reading the run…"))...)
	}
	var facts []app.UI
	add := func(name, value string) {
		if value != "" {
			facts = append(facts, app.Dt().Text(name), app.Dd().Text(value))
		}
	}
	add("Method", d.Method)
	add("Path", d.Path)
	add("URL", d.URL)
	if len(d.Headers) > 0 {
		add("Headers (names only)", strings.Join(d.Headers, ", "))
	}
	if t := d.Transport; t != nil {
		add("Answer", fmt.Sprintf("%d %s", t.Status, t.ContentType))
		add("Bytes", bytesText(t.Bytes))
		add("Answered after", ms(t.AnsweredMs))
		add("Longest silence", ms(t.LongestGap))
		add("Took", ms(t.TookMs))
	}
	if len(facts) == 0 {
		facts = append(facts, app.Dt().Text("Sent"), app.Dd().Text("read from a file: no request"))
	}
	body = append(body, app.Dl().Class("facts").Body(facts...))
	input := indent(d.Input)
	if input == "" {
		input = "(none: the file held no input)"
	}
	body = append(body,
		app.H3().ID("input-title").Text("Input, as sent"),
		app.Pre().Class("json").TabIndex(0).Aria("labelledby", "input-title").Text(input),
	)
	return app.Section().Class("card", "request").Aria("labelledby", "request-title").Body(body...)
}
