package seed

// Steps and SetSteps let a test register steps of its own and put the registered ones back.
func Steps() []step         { return append([]step(nil), steps...) }
func SetSteps(saved []step) { steps = saved }
