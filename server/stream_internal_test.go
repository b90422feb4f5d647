package server

import (
	"bytes"
	"testing"
	"time"
)

// A stream's buffer holds the frames due at one moment, not the whole
// script: one waiting before a large event holds no room for it.
func TestBurstIsTheMostDueAtOnce(t *testing.T) {
	of := func(after time.Duration, n int, holes ...hole) frame {
		return frame{after: after, text: bytes.Repeat([]byte("x"), n), holes: holes}
	}
	s := stream{
		frames: []frame{
			of(0, 100, hole{run: true}), of(0, 50),
			of(time.Second, 1000), of(0, 10, hole{}, hole{run: true}),
			of(time.Second, 30),
		},
		ids: ids{thread: []byte("th"), run: []byte("run")},
	}
	if got, want := s.burst(), 1000+10+2+3; got != want {
		t.Errorf("burst %d, want %d (the second moment's)", got, want)
	}
	s.noDelay = true
	if got, want := s.burst(), 100+3+50+1000+10+2+3+30; got != want {
		t.Errorf("with delays zeroed, burst %d, want %d (the whole stream)", got, want)
	}
}
