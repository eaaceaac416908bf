package transport

import "fmt"

// What the Windows Job Object code decides, kept apart from the system
// calls so that it is tested everywhere.

// jobLimits are the limits of a server's Job Object:
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, and nothing that would let a process
// leave it (no JOB_OBJECT_LIMIT_BREAKAWAY_OK, no _SILENT_BREAKAWAY_OK).
const jobLimits = jobLimitKillOnJobClose

const (
	jobLimitKillOnJobClose    = 0x00002000
	jobLimitBreakawayOK       = 0x00000800
	jobLimitSilentBreakawayOK = 0x00001000
)

// threadEntry is one thread of a Toolhelp snapshot.
type threadEntry struct{ id, owner uint32 }

// threadsOf lists the threads of process pid in a snapshot.
func threadsOf(threads []threadEntry, pid uint32) []uint32 {
	var ids []uint32
	for _, t := range threads {
		if t.owner == pid {
			ids = append(ids, t.id)
		}
	}
	return ids
}

// ntStatus names the NTSTATUS values a Windows process most often dies
// with.
var ntStatus = map[uint32]string{
	0xC0000005: "an access violation",
	0xC00000FD: "a stack overflow",
	0xC0000409: "a stack buffer overrun (fail fast)",
	0xC000013A: "Ctrl+C",
	0xC0000142: "a DLL that failed to initialize",
	0xC0000135: "a missing DLL",
	0xC0000017: "no memory",
	0x40010004: "its console closing (DBG_TERMINATE_PROCESS)",
}

// windowsExitWords says how a Windows process ended from its exit status:
// a status of 0xC0000000 and above is an NTSTATUS, a crash.
func windowsExitWords(code uint32) string {
	if name, ok := ntStatus[code]; ok {
		return fmt.Sprintf("ended with %s (0x%08X)", name, code)
	}
	if code >= 0xC0000000 {
		return fmt.Sprintf("crashed (NTSTATUS 0x%08X)", code)
	}
	return fmt.Sprintf("exited with status %d", code)
}
