package inspect

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// Handler serves the store to the inspector's page, as JSON: it reads,
// and reads files the page hands it, and never reaches an agent.
//
//	GET  /api/runs                  the runs kept, the newest first
//	GET  /api/runs/{id}             a run's detail
//	GET  /api/runs/{id}/events      its events: ?from=N (default 0) &limit=M (default and at most 1,000)
//	GET  /api/runs/{id}/at/{i}      the state and the conversation after its event i (-1: before any)
//	GET  /api/runs/{id}/script      it as a script, to download
//	GET  /api/runs/{id}/capture     it as SSE, as curl -N writes it, to download
//	GET  /api/runs/{id}/command     the check command that judges it again
//	GET  /api/live                  every change, as Server-Sent Events of Updates
//	POST /api/open                  a file's bytes (?name=its name): its runs are kept
func (s *Store) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/runs", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, struct {
			Runs []runs.Run `json:"runs"`
		}{s.Runs()})
	})
	mux.HandleFunc("GET /api/runs/{id}", func(w http.ResponseWriter, r *http.Request) {
		d, ok := s.Detail(r.PathValue("id"))
		if !ok {
			http.Error(w, gone, http.StatusNotFound)
			return
		}
		writeJSON(w, d)
	})
	mux.HandleFunc("GET /api/runs/{id}/events", func(w http.ResponseWriter, r *http.Request) {
		from, _ := strconv.Atoi(r.URL.Query().Get("from"))
		limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
		if err != nil || limit <= 0 || limit > maxPage {
			limit = maxPage
		}
		events, more, ok := s.Events(r.PathValue("id"), from, limit)
		if !ok {
			http.Error(w, gone, http.StatusNotFound)
			return
		}
		writeJSON(w, struct {
			Events []runs.Event `json:"events"`
			More   bool         `json:"more"`
		}{events, more})
	})
	mux.HandleFunc("GET /api/runs/{id}/at/{i}", func(w http.ResponseWriter, r *http.Request) {
		i, err := strconv.Atoi(r.PathValue("i"))
		if err != nil || i < -1 {
			http.Error(w, "the event is a number, from -1 (before the first)", http.StatusBadRequest)
			return
		}
		at, ok := s.At(r.PathValue("id"), i)
		if !ok {
			http.Error(w, gone, http.StatusNotFound)
			return
		}
		writeJSON(w, at)
	})
	mux.HandleFunc("GET /api/runs/{id}/script", func(w http.ResponseWriter, r *http.Request) {
		data, ok, err := s.Script(r.PathValue("id"))
		switch {
		case !ok:
			http.Error(w, gone, http.StatusNotFound)
		case err != nil:
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		default:
			download(w, "application/json", "run-"+r.PathValue("id")+".json", data)
		}
	})
	mux.HandleFunc("GET /api/runs/{id}/capture", func(w http.ResponseWriter, r *http.Request) {
		data, ok := s.Capture(r.PathValue("id"))
		if !ok {
			http.Error(w, gone, http.StatusNotFound)
			return
		}
		download(w, "text/plain; charset=utf-8", "run-"+r.PathValue("id")+".sse", data)
	})
	mux.HandleFunc("GET /api/runs/{id}/command", func(w http.ResponseWriter, r *http.Request) {
		text, ok := s.Command(r.PathValue("id"))
		if !ok {
			http.Error(w, gone, http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write([]byte(text))
	})
	mux.HandleFunc("GET /api/live", s.live)
	mux.HandleFunc("POST /api/open", func(w http.ResponseWriter, r *http.Request) {
		data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, script.MaxBytes))
		if err != nil {
			http.Error(w, "the file is over 16 MiB, or did not arrive whole", http.StatusRequestEntityTooLarge)
			return
		}
		name := r.URL.Query().Get("name")
		if name == "" {
			name = "dropped file"
		}
		said := s.LoadData(name, data)
		writeJSON(w, struct {
			Said []string `json:"said"`
		}{said})
	})
	return mux
}

// gone is the answer for a run the store does not hold.
const gone = "no such run: it was let go, or never was"

// download answers a file to save: a download, never a page the browser
// renders (it is the agent's bytes).
func download(w http.ResponseWriter, contentType, name string, data []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	w.Header().Set("Cache-Control", "no-store")
	w.Write(data)
}

// maxPage bounds the events one request reads.
const maxPage = 1000

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(v)
}

// live streams every change to one page until it leaves: Updates as SSE
// events, and a keep-alive comment when nothing changes for a while. A page
// that falls behind is told to read everything again ("resync").
func (s *Store) live(w http.ResponseWriter, r *http.Request) {
	sub := s.Subscribe()
	defer s.Unsubscribe(sub)
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if err := rc.Flush(); err != nil {
		return
	}
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	var buf []byte
	for {
		buf = buf[:0]
		select {
		case <-r.Context().Done():
			return
		case <-keepAlive.C:
			buf = append(buf, ": keep-alive\n\n"...)
		case u := <-sub.C:
			buf = appendUpdate(buf, u)
			for more := true; more && len(buf) < 64<<10; { // what else is waiting goes in the same write
				select {
				case u := <-sub.C:
					buf = appendUpdate(buf, u)
				default:
					more = false
				}
			}
		}
		if sub.Lost() {
			buf = appendUpdate(buf, runs.Update{Kind: "resync"})
		}
		if err := rc.SetWriteDeadline(time.Now().Add(10 * time.Second)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return
		}
		if _, err := w.Write(buf); err != nil || rc.Flush() != nil {
			return
		}
	}
}

func appendUpdate(b []byte, u runs.Update) []byte {
	data, _ := json.Marshal(u)
	b = append(b, "data: "...)
	b = append(b, data...)
	return append(b, '\n', '\n')
}
