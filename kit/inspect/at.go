package inspect

import (
	"strconv"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// At replays a run's kept events up to index (the last kept one when
// index is past it) through a fresh consumer started from the run's input,
// and says what the state and the conversation were there; ok is false
// for a run not kept. The events' marks are the judge's, not this
// replay's: it is for showing, and shows what a consumer that read the
// same events holds.
func (s *Store) At(id string, index int) (runs.At, bool) {
	d, events, ok := s.snapshot(id)
	if !ok {
		return runs.At{}, false
	}
	in, _, err := agui.ReadInput([]byte(d.Input))
	if err != nil {
		in, _, _ = agui.ReadInput([]byte(`{"threadId":"","runId":"","messages":[]}`))
	}
	c, err := agui.NewConsumer(in, agui.Options{})
	if err != nil { // a state the input sent that no consumer holds
		c, _ = agui.NewConsumer(agui.Input{}, agui.Options{})
	}
	at := runs.At{Index: -1}
	var j agui.Judgement
	before := state(c)
	for _, ev := range events {
		if ev.Index < 0 {
			continue
		}
		if ev.Index > index || j.Violation != nil {
			break
		}
		before = state(c)
		j = c.Feed([]byte(ev.JSON))
		at.Index = ev.Index
	}
	after := state(c)
	if at.Index >= 0 {
		switch j.Change.Kind {
		case agui.Applied:
			at.Changed = changed(before, after)
		case agui.Refused:
			at.Refused = j.Change.Refusal.Error()
		}
	}
	at.State = jsonpatch.Encode(after)
	at.Messages = jsonpatch.Encode(jsonpatch.NewArray(c.Messages()))
	return at, true
}

func state(c *agui.Consumer) jsonpatch.Value {
	if s, ok := c.State().(agui.JSONState); ok {
		return s.Value()
	}
	return nil
}

// changed are the places where two states differ, as JSON Pointers: the
// deepest that differ, a member or item that came or went, at most
// runs.MaxChanged of them. Values are never modified once made, so a part a
// patch did not touch is the same value in both, and costs nothing to
// compare.
func changed(a, b jsonpatch.Value) []string {
	var out []string
	diff(a, b, "", &out)
	return out
}

func diff(a, b jsonpatch.Value, at string, out *[]string) {
	if len(*out) >= runs.MaxChanged || same(a, b) {
		return
	}
	switch a := a.(type) {
	case *jsonpatch.Object:
		if b, ok := b.(*jsonpatch.Object); ok {
			for _, name := range a.Names() {
				va, _ := a.Get(name)
				vb, ok := b.Get(name)
				if !ok {
					*out = append(*out, at+"/"+jsonpatch.EscapeToken(name))
					continue
				}
				diff(va, vb, at+"/"+jsonpatch.EscapeToken(name), out)
			}
			for _, name := range b.Names() {
				if _, ok := a.Get(name); !ok && len(*out) < runs.MaxChanged {
					*out = append(*out, at+"/"+jsonpatch.EscapeToken(name))
				}
			}
			return
		}
	case *jsonpatch.Array:
		if b, ok := b.(*jsonpatch.Array); ok {
			for i := range max(a.Len(), b.Len()) {
				p := at + "/" + strconv.Itoa(i)
				if i >= a.Len() || i >= b.Len() {
					if len(*out) < runs.MaxChanged {
						*out = append(*out, p)
					}
					continue
				}
				diff(a.At(i), b.At(i), p, out)
			}
			return
		}
	}
	if !jsonpatch.Equal(a, b) {
		*out = append(*out, at)
	}
}

// same reports whether two values are the one value: a part of the state
// an update did not touch.
func same(a, b jsonpatch.Value) bool {
	switch a := a.(type) {
	case *jsonpatch.Object:
		b, ok := b.(*jsonpatch.Object)
		return ok && a == b
	case *jsonpatch.Array:
		b, ok := b.(*jsonpatch.Array)
		return ok && a == b
	}
	return false
}
