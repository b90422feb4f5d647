package page

import (
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A long text (a message of ten thousand deltas, a tool call's megabyte of
// arguments) shows its last clipKeep characters until the person asks for
// all of it: laying out 50 kB of text at once holds the page's one thread
// for 100 ms and more, and stepping through a run, what changed is at the
// end.
const (
	clipAbove = 4000 // characters: a text this long or shorter shows whole
	clipKeep  = 2000
)

// Clip is the part of text to show, and how many characters before it are
// left out: all of it when whole is asked for or the text is short.
func Clip(text string, whole bool) (shown string, hidden int) {
	if whole || len(text) <= clipAbove {
		return text, 0
	}
	n := utf8.RuneCountInString(text)
	if n <= clipAbove {
		return text, 0
	}
	hidden = n - clipKeep
	at := 0
	for i := 0; i < hidden; i++ {
		_, size := utf8.DecodeRuneInString(text[at:])
		at += size
	}
	return text[at:], hidden
}

// clipped is Clip for the view: the text to show, and before it, when some
// is left out, a line that says how much with a button that shows it all
// (ShowWhole with key).
func clipped(key, text string, whole map[string]bool, send func(Msg)) (string, app.UI) {
	shown, hidden := Clip(text, whole[key])
	if hidden == 0 {
		return shown, nil
	}
	return shown, app.P().Class("clipped").Body(
		app.Text("… "+group(int64(hidden))+" characters before these are not drawn. "),
		app.Button().Type("button").DataSet("key", key).OnClick(func(ctx app.Context, e app.Event) {
			send(ShowWhole{Key: ctx.JSSrc().Get("dataset").Get("key").String()})
		}).Text("Show all "+group(int64(hidden+clipKeep))+" characters"),
	)
}
