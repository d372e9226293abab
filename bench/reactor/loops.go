package reactor

import (
	"errors"

	"loopkit/bench/workload"
	"loopkit/loop"
)

// CallbacksOnLoops is Callbacks on a loop.Group of job.Loops loops, one
// goroutine each: the job's connections are shared out between the loops,
// each loop running fetchCallbacks on its share with a client of its own,
// and nothing shared but the Meter's atomics. Only closed-loop fetch jobs
// (S2) run on several loops: they are what "and on two cores?" is about.
func CallbacksOnLoops(job workload.Job, m *workload.Meter) error {
	if job.Loops <= 1 {
		return Callbacks(job, m)
	}
	if err := job.Check(); err != nil {
		return err
	}
	if job.Kind != workload.Fetch || job.Paced() || job.Probe {
		return errors.New("reactor: only closed-loop fetch jobs run on several loops")
	}
	g, err := loop.NewGroup(job.Loops, &loop.GroupOptions{Options: loop.Options{Poller: job.Poller}, LockOSThread: job.LockOSThread})
	if err != nil {
		return err
	}
	defer g.Close()
	limit := job.Limit()
	return g.Run(func(i int, l *loop.Loop) error {
		share := job
		share.C = limit / job.Loops
		if i < limit%job.Loops {
			share.C++
		}
		if share.C == 0 {
			return nil
		}
		client := newClient(l, share)
		defer client.Close()
		fetchCallbacks(l, client, share, m)
		return l.Run()
	})
}
