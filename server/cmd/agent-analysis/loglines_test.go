package main

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"
)

// handled counts the lines the standard handler was given.
type handled struct {
	slog.Handler
	n int
}

func (h *handled) Handle(ctx context.Context, r slog.Record) error {
	h.n++
	return h.Handler.Handle(ctx, r)
}

// bothWays writes r through lineHandler and through the standard handler
// alone, in one format.
func bothWays(t *testing.T, json bool, r slog.Record) (ours, std string, fast bool) {
	t.Helper()
	var a, b bytes.Buffer
	opts := &slog.HandlerOptions{Level: slog.LevelDebug}
	standard := func(buf *bytes.Buffer) slog.Handler {
		if json {
			return slog.NewJSONHandler(buf, opts)
		}
		return slog.NewTextHandler(buf, opts)
	}
	spy := &handled{Handler: standard(&a)}
	if err := (&lineHandler{spy, &a, json}).Handle(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if err := standard(&b).Handle(context.Background(), r.Clone()); err != nil {
		t.Fatal(err)
	}
	return a.String(), b.String(), spy.n == 0
}

func requestLine(at time.Time) slog.Record {
	r := slog.NewRecord(at, slog.LevelInfo, "request", 0)
	r.AddAttrs(slog.String("method", "POST"), slog.String("path", "/api/agent-analysis"), slog.Int("status", 200),
		slog.Duration("duration", 1234567*time.Nanosecond), slog.String("scenario", "normal"),
		slog.String("threadId", "5f0c2a9e-1b7d-4c3e-9a51-0d6e8f2b7c41"), slog.String("runId", "r-1"),
		slog.Int("events", 12), slog.String("end", "completed"), slog.Bool("noDelay", true), slog.Uint64("n", 7))
	return r
}

// A request's line is written by lineHandler itself, as the standard
// handler writes it, in both formats.
func TestARequestLineIsWrittenAsTheStandardHandlerWritesIt(t *testing.T) {
	for _, at := range []time.Time{
		time.Date(2026, 12, 7, 1, 2, 3, 456789000, time.UTC),
		time.Date(2026, 12, 7, 1, 2, 3, 0, time.UTC),
		time.Date(2026, 12, 7, 1, 2, 3, 999999999, time.FixedZone("", -5*3600-30*60)),
		time.Now(), // with its monotonic reading
		{},         // no time
	} {
		for _, json := range []bool{true, false} {
			ours, std, fast := bothWays(t, json, requestLine(at))
			if !fast {
				t.Errorf("json %v, %v: the line went to the standard handler", json, at)
			}
			if ours != std {
				t.Errorf("json %v:\n%s\nwant\n%s", json, ours, std)
			}
		}
	}
}

// Whatever a line holds, it comes out as the standard handler writes it:
// by lineHandler when it is plain, else by that handler.
func FuzzLine(f *testing.F) {
	f.Add("request", "path", "/api/agent-analysis", int64(200), int64(time.Millisecond), int64(1765069323), int64(456789000), 0, true)
	f.Add("request", "threadId", "a b", int64(-1), int64(0), int64(0), int64(0), 4, false)
	f.Add("warn: x", "k", `"quoted"`, int64(0), int64(-5), int64(-62167219201), int64(0), -4, false)
	f.Add("r", "k=v", "é", int64(1), int64(1), int64(253402300800), int64(1), 8, true)
	f.Add("r", "", "x\\y", int64(1), int64(1), int64(1), int64(999999999), 2, true)
	f.Fuzz(func(t *testing.T, msg, key, value string, n, d, sec, nsec int64, level int, json bool) {
		r := slog.NewRecord(time.Unix(sec, nsec).UTC(), slog.Level(level), msg, 0)
		r.AddAttrs(slog.String(key, value), slog.Int64("n", n), slog.Duration("d", time.Duration(d)), slog.Bool("b", n%2 == 0))
		if ours, std, _ := bothWays(t, json, r); ours != std {
			t.Errorf("json %v:\n%q\nwant\n%q", json, ours, std)
		}
	})
}

// Anything but a plain string, an integer, a boolean or a duration goes to
// the standard handler, as does every logger made With attributes.
func TestAnythingElseGoesToTheStandardHandler(t *testing.T) {
	for name, attr := range map[string]slog.Attr{
		"float": slog.Float64("f", 1.5),
		"any":   slog.Any("warnings", []string{"a"}),
		"time":  slog.Time("t", time.Unix(0, 0)),
		"group": slog.Group("g", slog.Int("i", 1)),
		"empty": {},
	} {
		r := slog.NewRecord(time.Unix(0, 0), slog.LevelWarn, "m", 0)
		r.AddAttrs(attr)
		ours, std, fast := bothWays(t, true, r)
		if fast || ours != std {
			t.Errorf("%s: fast %v\n%s\nwant\n%s", name, fast, ours, std)
		}
	}
	var buf bytes.Buffer
	h := logHandler(&buf, false, true).WithAttrs([]slog.Attr{slog.String("a", "b")})
	if _, ok := h.(*lineHandler); ok {
		t.Error("a handler With attributes is a lineHandler, which would leave them out")
	}
}

// BenchmarkRequestLine is a request's line through lineHandler, and
// through the standard handler alone.
func BenchmarkRequestLine(b *testing.B) {
	r := requestLine(time.Now())
	for _, json := range []bool{true, false} {
		std := slog.Handler(slog.NewTextHandler(discard{}, nil))
		if json {
			std = slog.NewJSONHandler(discard{}, nil)
		}
		name := map[bool]string{true: "json", false: "text"}[json]
		b.Run(name+"/lineHandler", func(b *testing.B) {
			h := &lineHandler{std, discard{}, json}
			b.ReportAllocs()
			for b.Loop() {
				h.Handle(context.Background(), r)
			}
		})
		b.Run(name+"/standard", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				std.Handle(context.Background(), r)
			}
		})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// plainText, eight bytes at a time, refuses a text for any byte that is
// not plain, wherever it stands.
func TestPlainText(t *testing.T) {
	for c := range 256 {
		for at := range 17 {
			text := []byte("abcdefghijklmnopq")
			text[at] = byte(c)
			if got := plainText(string(text)); got != plainByte[c] {
				t.Errorf("%q: plain %v, want %v", text, got, plainByte[c])
			}
		}
	}
	if plainText("") {
		t.Error("the empty text is plain")
	}
}

// Lines of one second share its stamp, and each line still has its own
// fraction and zone.
func TestLinesOfOneSecond(t *testing.T) {
	base := time.Date(2026, 12, 7, 1, 2, 3, 0, time.UTC)
	for _, at := range []time.Time{
		base, base.Add(1), base.Add(120 * time.Millisecond), base.Add(999999999),
		base.In(time.FixedZone("", 3600)).Add(5), base.Add(time.Second + 7), base.Add(5),
		base.AddDate(-2027, 0, 0), base.AddDate(8000, 0, 0), base,
	} {
		for _, json := range []bool{true, false} {
			if ours, std, _ := bothWays(t, json, requestLine(at)); ours != std {
				t.Errorf("json %v, %v:\n%s\nwant\n%s", json, at, ours, std)
			}
		}
	}
}
