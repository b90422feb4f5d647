package proxy

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-analysis/agent-analysis/internal/atomicfile"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/record"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// LogPath is the file the nth run logged goes to: path itself for the
// first, then path with "-n" before its extension (traffic.json,
// traffic-2.json, …), so that a directory of them is what serve
// -fixtures plays and check judges, each under a name of its own.
func LogPath(path string, n int) string {
	if n <= 1 {
		return path
	}
	ext := filepath.Ext(path)
	return fmt.Sprintf("%s-%d%s", strings.TrimSuffix(path, ext), n, ext)
}

// log writes a run as a script, as record does (record.Script: the input
// sent, every frame with its delay, the agent's generated ids replaced by
// stable placeholders, the time the request came), whole or not at all.
func (p *Proxy) log(r *Run, came time.Time, frames []script.Frame) {
	ex := agent.Exchange{Sent: r.sent, Frames: frames}
	ex.Transport.Events, ex.Transport.Sent = r.Events, came
	s, err := record.Script(ex, p.cfg.Upstream)
	if err != nil {
		r.Notes = append(r.Notes, "not logged: "+err.Error())
		return
	}
	data, err := s.Encode()
	if err != nil {
		r.Notes = append(r.Notes, "not logged: "+err.Error())
		return
	}
	if len(data) > script.MaxBytes {
		// frame bounds the stream alone: the input, and the ids written
		// in place of the agent's, may take it over.
		r.Notes = append(r.Notes, fmt.Sprintf("not logged: the script would be %d bytes, over the %d MiB a script may be", len(data), script.MaxBytes>>20))
		return
	}
	p.mu.Lock()
	p.logged++
	path := LogPath(p.cfg.Log, p.logged)
	p.mu.Unlock()
	if err := atomicfile.Write(path, data); err != nil {
		r.Notes = append(r.Notes, "not logged: "+err.Error())
		return
	}
	r.Logged = path
}
