package safefile

import (
	"fmt"
	"time"
)

// lockWait is how long a note waits for another mcpcli's; lockPoll how
// often it looks.
const (
	lockWait = 10 * time.Second
	lockPoll = 5 * time.Millisecond
)

func errLocked(path string) error {
	return fmt.Errorf("another mcpcli has held %s for over %v; try again, or remove it if no mcpcli is running", path, lockWait)
}
