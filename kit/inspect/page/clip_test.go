package page

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestALongTextShowsItsEndUntilAskedForAll(t *testing.T) {
	short := strings.Repeat("a", clipAbove)
	if shown, hidden := Clip(short, false); shown != short || hidden != 0 {
		t.Errorf("a text of %d characters: %d left out", clipAbove, hidden)
	}
	// Four bytes a character: long in bytes, short in characters.
	wide := strings.Repeat("😀", clipAbove)
	if shown, hidden := Clip(wide, false); shown != wide || hidden != 0 {
		t.Errorf("%d characters of four bytes: %d left out", clipAbove, hidden)
	}
	long := strings.Repeat("é", 3000) + strings.Repeat("x", 3000)
	shown, hidden := Clip(long, false)
	if hidden != 6000-clipKeep || utf8.RuneCountInString(shown) != clipKeep || !strings.HasSuffix(long, shown) {
		t.Errorf("6,000 characters: %d left out, %d shown", hidden, utf8.RuneCountInString(shown))
	}
	mixed := strings.Repeat("é", 6000)
	if shown, _ := Clip(mixed, false); !utf8.ValidString(shown) || utf8.RuneCountInString(shown) != clipKeep {
		t.Errorf("cut inside a character: %q…", shown[:8])
	}
	if shown, hidden := Clip(long, true); shown != long || hidden != 0 {
		t.Errorf("asked for whole: %d left out", hidden)
	}
}

func TestShowWholeHoldsForTheShownRunOnly(t *testing.T) {
	m, _ := step(t, NewModel(), Located{Hash: "#run=1"})
	before := m
	m, cmd := step(t, m, ShowWhole{Key: "message:m1"})
	if cmd != nil || !m.Shown.Whole["message:m1"] || before.Shown.Whole["message:m1"] {
		t.Fatalf("ShowWhole: %v, Cmd %v; the Model before changed: %v", m.Shown.Whole, cmd, before.Shown.Whole)
	}
	m, _ = step(t, m, Located{Hash: "#run=2"})
	if len(m.Shown.Whole) != 0 {
		t.Errorf("another run keeps the first's whole texts: %v", m.Shown.Whole)
	}
}
