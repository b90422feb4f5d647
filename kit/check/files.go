package check

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/rules"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// Skipped is a file of a directory that holds no stream to judge, and why.
type Skipped struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// Files judges every file named, and every file of every directory
// named, in name order: scripts and captures alike, told apart by their
// content (Sniff). A file named that cannot be read fails by rules.File;
// a file of a directory that is neither a script nor a capture (a README,
// a manifest) is skipped, and said to be: nothing is passed over in
// silence. A directory is read one level deep.
func Files(paths []string, useExpect bool) ([]Result, []Skipped) {
	var out []Result
	var skipped []Skipped
	for _, p := range paths {
		if info, err := os.Stat(p); err != nil || !info.IsDir() {
			out = append(out, File(p, useExpect)...)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			out = append(out, Result{Name: script.BaseName(p), Path: p, Failures: []rules.Failure{{Rule: rules.File, Text: fmt.Sprintf("%s: the folder cannot be listed: %v", p, err)}}})
			continue
		}
		names := make([]string, 0, len(entries))
		for _, e := range entries {
			names = append(names, e.Name())
		}
		slices.Sort(names)
		for _, name := range names {
			path := filepath.Join(p, name)
			info, err := os.Stat(path)
			switch {
			case err != nil:
				out = append(out, File(path, useExpect)...) // fails, saying why
			case info.IsDir():
				skipped = append(skipped, Skipped{path, "a folder: check reads the files of the folders it is given, not of theirs"})
			case !info.Mode().IsRegular():
				skipped = append(skipped, Skipped{path, "not a regular file"})
			default:
				if why := sniffFile(path); why != "" {
					skipped = append(skipped, Skipped{path, why})
					continue
				}
				out = append(out, File(path, useExpect)...)
			}
		}
		if len(entries) == 0 {
			skipped = append(skipped, Skipped{p, "an empty folder"})
		}
	}
	return out, skipped
}

// sniffFile is why a file of a directory is no stream to judge, from its
// first bytes past any white space; "" when it is one, or cannot be read
// (File says why).
func sniffFile(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	format := Sniff(head[:n])
	if format == blank && n == len(head) {
		// White space may lead a stream by any length: read on, as File
		// does.
		data, err := script.ReadBounded(path, "a script")
		if err != nil {
			return ""
		}
		format = Sniff(data)
	}
	return format.skip
}

// Format is what a file holds, as its content says.
type Format struct {
	Name string // "script", "capture", or "" for neither
	skip string // why neither
}

// The formats a file may hold.
var (
	ScriptFile  = Format{Name: "script"}  // JSON: an array, JSON Lines, or a script object
	CaptureFile = Format{Name: "capture"} // an SSE stream, as curl -N writes it
	BinaryFile  = Format{Name: "binary"}  // a stream in AG-UI's binary transport, as curl writes it

	blank = Format{skip: "empty, or only white space"}
)

// Sniff tells a file's format from its first bytes (a BOM and blank
// lines aside): a binary stream starts with a frame length's zero byte
// (proto.IsBinary), JSON with [ or {, an SSE stream with a field or a
// comment (agent.IsCapture).
func Sniff(head []byte) Format {
	if proto.IsBinary(head) {
		return BinaryFile
	}
	body := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\ufeff")), " \t\r\n")
	switch {
	case len(body) == 0:
		return blank
	case body[0] == '[' || body[0] == '{':
		return ScriptFile
	case agent.IsCapture(head):
		return CaptureFile
	}
	start := body[:min(len(body), 24)]
	if i := bytes.IndexAny(start, "\r\n"); i >= 0 {
		start = start[:i]
	}
	return Format{skip: fmt.Sprintf("neither a script (JSON) nor a capture (SSE): it starts %q", start)}
}

// File judges the script in one file, then its continuations, each a
// result of its own; one that cannot be read fails. A file that holds an
// SSE stream (what curl -N writes) is judged as a script of its events,
// the framing checked as a live stream's is.
func File(path string, useExpect bool) []Result {
	data, err := script.ReadBounded(path, "a script")
	if err != nil {
		return []Result{{Name: script.BaseName(path), Path: path, Failures: []rules.Failure{{Rule: rules.File, Text: err.Error()}}}}
	}
	return Data(path, data, useExpect)
}

// Data judges a file's bytes, as File judges the file at path.
func Data(path string, data []byte, useExpect bool) []Result {
	if f := Sniff(data); f == CaptureFile || f == BinaryFile {
		res := capture(script.BaseName(path), agent.ReadCapture(data), useExpect)
		res.Path = path
		return []Result{res}
	}
	s, err := script.Parse(data, script.BaseName(path))
	if err != nil {
		return []Result{{Name: script.BaseName(path), Path: path, Failures: []rules.Failure{{Rule: rules.File, Text: fmt.Sprintf("%s: %v", path, err)}}}}
	}
	res := Script(s, useExpect)
	res.Path = path
	out := []Result{res}
	for _, c := range Continuations(s, useExpect) {
		c.Path = path
		out = append(out, c)
	}
	return out
}

// capture judges an SSE stream read from a file: its events, replayed,
// and its framing.
func capture(name string, c agent.Capture, useExpect bool) Result {
	s := script.Script{Name: name, Frames: c.Frames}
	r := Run(s)
	if r.Violation == nil && r.InputErr == nil && c.Unreadable != nil {
		r.Violation = c.Unreadable // where the engine, reading on, would break not-an-event
	}
	res := scriptResult(s, r, useExpect)
	res.Failures = append(res.Failures, c.Failures...)
	res.Notes = append(res.Notes, c.Notes...)
	res.OK = len(res.Failures) == 0
	return res
}

// EventLine is the line a file's nth event (from 1) starts on, a script's
// or a capture's; 0 when it cannot say.
func EventLine(path string, event int) int {
	data, err := script.ReadBounded(path, "a script")
	if err != nil {
		return 0
	}
	var frames []script.Frame
	switch Sniff(data) {
	case BinaryFile:
		return 0 // a binary capture has no lines
	case CaptureFile:
		frames = agent.ReadCapture(data).Frames
	default:
		if s, err := script.Parse(data, ""); err == nil {
			frames = s.Frames
		}
	}
	for _, f := range frames {
		if f.Event == nil {
			continue
		}
		if event--; event == 0 {
			return f.Line
		}
	}
	return 0
}
