package page

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// runtime performs Update's Cmds with the browser's own fetch, EventSource
// and clipboard (net/http would add megabytes to the wasm), and brings each
// answer back as a Msg. It talks to this page's own /api only: the
// inspector never reaches an agent.
type runtime struct {
	deliver func(Msg) // hands a Msg to the UI goroutine
	live    app.Value
	funcs   []app.Func
}

func newRuntime(deliver func(Msg)) *runtime { return &runtime{deliver: deliver} }

// listen opens the live feed: the browser reconnects by itself when it
// breaks, and each (re)connection reads the list anew.
func (r *runtime) listen() {
	r.live = app.Window().Get("EventSource").New("/api/live")
	on := func(event string, f func(app.Value)) {
		fn := app.FuncOf(func(_ app.Value, args []app.Value) any {
			f(args[0])
			return nil
		})
		r.funcs = append(r.funcs, fn)
		r.live.Call("addEventListener", event, fn)
	}
	on("open", func(app.Value) { r.deliver(LiveOpened{}) })
	on("error", func(app.Value) { r.deliver(LiveLost{}) })
	on("message", func(e app.Value) {
		var u runs.Update
		if json.Unmarshal([]byte(e.Get("data").String()), &u) == nil {
			r.deliver(LiveUpdate{Update: u})
		}
	})
}

func (r *runtime) close() {
	if r.live != nil {
		r.live.Call("close")
	}
	for _, f := range r.funcs {
		f.Release()
	}
	r.funcs = nil
}

func (r *runtime) perform(c Cmd) {
	switch c := c.(type) {
	case nil:
	case Batch:
		for _, c := range c {
			r.perform(c)
		}
	case ReadRuns:
		go func() {
			var v struct {
				Runs []runs.Run `json:"runs"`
			}
			_, err := getJSON("/api/runs", &v)
			r.deliver(GotRuns{Runs: v.Runs, Err: err})
		}()
	case ReadDetail:
		go func() {
			var d runs.Detail
			status, err := getJSON("/api/runs/"+url.PathEscape(c.ID), &d)
			r.deliver(GotDetail{ID: c.ID, Detail: d, Gone: status == 404, Err: err})
		}()
	case ReadEvents:
		go func() {
			var v struct {
				Events []runs.Event `json:"events"`
				More   bool         `json:"more"`
			}
			status, err := getJSON(fmt.Sprintf("/api/runs/%s/events?from=%d&limit=%d", url.PathEscape(c.ID), c.From, c.Limit), &v)
			r.deliver(GotEvents{ID: c.ID, From: c.From, Events: v.Events, More: v.More, Gone: status == 404, Err: err})
		}()
	case ReadAt:
		go func() {
			var at runs.At
			_, err := getJSON("/api/runs/"+url.PathEscape(c.ID)+"/at/"+strconv.Itoa(c.Index), &at)
			r.deliver(GotAt{ID: c.ID, At: at, Err: err})
		}()
	case CopyRun:
		go func() {
			_, text, err := fetch("/api/runs/"+url.PathEscape(c.ID)+"/"+string(c.What), nil)
			if err == nil {
				err = writeClipboard(text)
			}
			r.deliver(Copied{What: c.What, ID: c.ID, Err: err})
		}()
	case OpenFiles:
		go func() {
			for _, f := range c.Files {
				r.deliver(openFile(f))
			}
		}()
	case KeepPlace:
		loc := app.Window().Get("location")
		to := loc.Get("pathname").String() + loc.Get("search").String() + c.Hash
		app.Window().Get("history").Call("replaceState", nil, "", to)
	}
}

// openFile posts a file's bytes to the inspector, which keeps its runs.
func openFile(f File) Opened {
	var v struct {
		Said []string `json:"said"`
	}
	body, _ := f.Handle.(app.Value)
	status, text, err := fetch("/api/open?name="+url.QueryEscape(f.Name), map[string]any{"method": "POST", "body": body})
	if err == nil {
		if status != 200 {
			err = errors.New(text)
		} else {
			err = json.Unmarshal([]byte(text), &v)
		}
	}
	return Opened{Name: f.Name, Said: v.Said, Err: err}
}

// getJSON reads a JSON answer into v; an answer other than 200 is an
// error, its text the reason.
func getJSON(path string, v any) (status int, err error) {
	status, text, err := fetch(path, nil)
	if err != nil {
		return status, err
	}
	err = json.Unmarshal([]byte(text), v)
	yield()
	return status, err
}

// yield lets the browser end the task it was called in, and goes on in a
// task of its own. Go's wasm runs every goroutine ready to run in the task
// that woke it: without it, decoding an answer (a page of 250 events) ran
// in the same task as go-app drawing it, and a click's task also started
// the reads it asked for, each together past 50 ms on a slower machine.
func yield() {
	done := make(chan struct{})
	next := app.FuncOf(func(app.Value, []app.Value) any {
		close(done)
		return nil
	})
	app.Window().Call("setTimeout", next, 0)
	<-done
	next.Release()
}

// fetch asks this page's server, and reads the whole answer as text.
func fetch(path string, init map[string]any) (status int, text string, err error) {
	yield() // not in the task of the click or the answer that asked
	if init == nil {
		init = map[string]any{}
	}
	init["cache"] = "no-store"
	res, err := await(app.Window().Call("fetch", path, init))
	if err != nil {
		return 0, "", err
	}
	status = res.Get("status").Int()
	body, err := await(res.Call("text"))
	if err != nil {
		return status, "", err
	}
	text = body.String()
	if status != 200 {
		return status, text, fmt.Errorf("%d: %s", status, text)
	}
	return status, text, nil
}

// writeClipboard puts text on the clipboard, where the browser gives the
// page one.
func writeClipboard(text string) error {
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		return errors.New("this browser gives the page no clipboard: download it instead")
	}
	_, err := await(clip.Call("writeText", text))
	return err
}

// await blocks the calling goroutine (never the UI's) until the promise
// settles.
func await(promise app.Value) (app.Value, error) {
	type settled struct {
		value app.Value
		err   error
	}
	done := make(chan settled, 1)
	ok := app.FuncOf(func(_ app.Value, args []app.Value) any {
		done <- settled{value: args[0]}
		return nil
	})
	fail := app.FuncOf(func(_ app.Value, args []app.Value) any {
		done <- settled{err: errors.New(args[0].Call("toString").String())}
		return nil
	})
	promise.Call("then", ok, fail)
	s := <-done
	ok.Release()
	fail.Release()
	return s.value, s.err
}
