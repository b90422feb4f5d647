package ui

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/core"
)

// wireLog is the Wire disclosure: the frames this run received, newest
// last, each with what the client did with it and its JSON.
func wireLog(m core.Model) app.UI {
	return app.Details().Class("card", "wire").Body(
		app.Summary().Text(fmt.Sprintf("Wire (this run's frames, last %d)", core.MaxFrames)),
		app.If(len(m.Frames) == 0, func() app.UI { return app.P().Class("hint").Text("No frames yet: press Run.") }),
		app.Ol().Class("frames").Body(
			app.Range(m.Frames).Slice(func(i int) app.UI { return frameItem(m.Frames[i]) }),
		),
	)
}

func frameItem(f core.Frame) app.UI {
	return app.Li().Class("frame", verdictClass(f.Verdict)).DataSet("verdict", string(f.Verdict)).Body(
		app.P().Class("frame-head").Body(
			app.Span().Class("seq").Text(fmt.Sprintf("#%d", f.Seq)),
			app.Text(fmt.Sprintf(" · %.2f s · ", f.At.Seconds())),
			app.Strong().Text(f.Type),
			app.Text(fmt.Sprintf(" · %s B · ", num(float64(f.Size)))),
			app.Span().Class("verdict").Text(string(f.Verdict)),
		),
		// Focusable so that a keyboard can scroll it; its text can be
		// selected and copied.
		app.Pre().TabIndex(0).Aria("label", fmt.Sprintf("Frame %d, %s, JSON", f.Seq, f.Type)).Text(pretty(f.JSON)),
	)
}

// pretty indents an event's JSON; a frame cut at its bound stays as it is.
func pretty(raw string) string {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(raw), "", "  "); err != nil {
		return raw + " …"
	}
	return b.String()
}

func verdictClass(v core.Verdict) string {
	switch v {
	case core.Rejected, core.RunFailed:
		return "problem"
	case core.Ignored, core.AfterTheEnd:
		return "warning"
	default:
		return "info"
	}
}
