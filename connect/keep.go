package connect

import (
	"fmt"
	"os"

	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
)

// Keep writes what the person answered in this run as an answers file:
// to save (--save-answers), or, when save is "" and the run failed after
// they accepted an ask (failed), to a file of its own, said with the
// command (the run's args) that sends them again. Answers that only
// decline or cancel are nothing to send again. What it did is said on con.
func (a *Asking) Keep(con *render.Console, save string, failed bool, args []string) {
	rec := a.Recorder()
	if rec == nil {
		return
	}
	n, accepted := rec.Answered()
	if n == 0 {
		return
	}
	path := save
	if path == "" {
		if !failed || accepted == 0 {
			return
		}
		file, ferr := os.CreateTemp("", "mcpcli-answers-*.json")
		if ferr != nil {
			con.Warn(fmt.Sprintf("your answers could not be kept: %v", ferr))
			return
		}
		file.Close()
		path = file.Name()
	}
	file, _, _ := rec.Answers()
	if werr := os.WriteFile(path, file, 0o600); werr != nil {
		con.Warn(fmt.Sprintf("your answers could not be saved in %s: %v", path, werr))
		return
	}
	if save != "" {
		con.Printf("mcpcli: your answers are saved in %s (send them again with --answers %s)", path, path)
		return
	}
	line, redacted := request.ResendCommand(args, path)
	if redacted {
		con.Printf("mcpcli: your answers are kept in %s; to send them again (put back what shows as %s): %s", path, request.Redacted, line)
		return
	}
	con.Printf("mcpcli: your answers are kept in %s; to send them again: %s", path, line)
}
