// Package atomicfile writes a file whole or not at all.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes data to path: to a temporary file beside it, synced, then
// renamed over path. A reader (a server loading a directory of scripts, a
// CI step reading a report) never sees half a file, and a failed write
// leaves what was there. The file is 0644, as os.WriteFile would make it.
// An error starts with path.
func Write(path string, data []byte) (err error) {
	var tmp *os.File
	defer func() {
		if err == nil {
			return
		}
		if tmp != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
		// Their paths are the temporary file's: say the one asked for.
		var pe *fs.PathError
		var le *os.LinkError
		if errors.As(err, &pe) {
			err = pe.Err
		} else if errors.As(err, &le) {
			err = le.Err
		}
		err = fmt.Errorf("%s: %w", path, err)
	}()
	if tmp, err = os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp"); err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil { // CreateTemp's 0600 would hide it from a reader run as another user
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
