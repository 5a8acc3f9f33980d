"""A research sub-agent that is a team: a planner, two solvers and a critic."""
