package supervise

// proc is one row of a process table.
type proc struct{ pid, ppid int }

// descendants lists the processes below pid in table, parents before
// their children (where the system can only list its processes, not
// hand the orphans to the supervisor: macOS).
func descendants(pid int, table []proc) []int {
	kids := map[int][]int{}
	for _, p := range table {
		kids[p.ppid] = append(kids[p.ppid], p.pid)
	}
	var out []int
	seen := map[int]bool{pid: true}
	queue := []int{pid}
	for len(queue) > 0 {
		for _, k := range kids[queue[0]] {
			if !seen[k] && k > 1 {
				seen[k] = true
				out = append(out, k)
				queue = append(queue, k)
			}
		}
		queue = queue[1:]
	}
	return out
}
