"""Running a tournament: playing its schedule game by game and keeping each finished game in the store."""
