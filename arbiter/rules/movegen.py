"""Legal move generation on bitboards, driven by a variant's description.

The generator works on raw integers (``white``, ``black``, ``kings`` bitboards and the side to move) so
that perft and the referee share one implementation. A raw move is a tuple
``(from_bit, to_bit, captured_mask, crowns, path)``: single-bit masks for the start and end, the mask of
captured pieces, whether a man ends the move as a king, and the bit indices visited (start first).
Two capture sequences with the same start, end and captured set are one move.
"""

from __future__ import annotations

from arbiter.rules.geometry import Color, absolute_step
from arbiter.rules.variant import CaptureChoice, CaptureRemoval, CaptureSequence, CrowningInCapture, Variant

RawMove = tuple[int, int, int, bool, tuple[int, ...]]
# A capture sequence as the search finds it: path, captured bit indices in order, captured mask, crowned.
_Found = tuple[tuple[int, ...], tuple[int, ...], int, bool]
# A line from a square: the direction's bit offset, then the bit indices along it, nearest first.
_Ray = tuple[int, tuple[int, ...]]


def _shift(bb: int, offset: int) -> int:
    return bb << offset if offset > 0 else bb >> -offset


class MoveGenerator:
    """Precomputed tables for one variant, and the functions that use them."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        g = variant.geometry
        self.mask = g.mask
        self.flying = variant.flying_kings
        self.majority = variant.capture_choice is CaptureChoice.MAJORITY
        self.crowning = variant.crowning_in_capture
        self.crowning_ends_move = variant.crowning_in_capture is CrowningInCapture.ENDS_MOVE
        self.crowning_continues = variant.crowning_in_capture is CrowningInCapture.CONTINUES_AS_KING
        self.men_capture_kings = variant.men_capture_kings
        self.capture_filter = variant.capture_filter
        self.immediate_removal = variant.capture_removal is CaptureRemoval.IMMEDIATE
        self.no_reversal = variant.no_reversal
        ortho_span = 1 if g.all_squares else 2
        bits = g.square_bits[1:]
        self.promotion = (g.row_mask(g.crowning_row(Color.WHITE)), g.row_mask(g.crowning_row(Color.BLACK)))

        def offsets(dirs: tuple[str, ...], color: Color) -> tuple[int, ...]:
            return tuple(g.offset(absolute_step(d, color, ortho_span)) for d in dirs)

        def rays(dirs: tuple[str, ...], color: Color, min_length: int = 1) -> dict[int, tuple[_Ray, ...]]:
            # Each ray carries its direction (the bit offset of one step) so a turn back can be spotted.
            steps = [absolute_step(d, color, ortho_span) for d in dirs]
            table: dict[int, tuple[_Ray, ...]] = {}
            for b in bits:
                table[b] = tuple((g.offset(s), r) for s in steps if len(r := g.ray(b, s)) >= min_length)
            return table

        self.man_step_offsets = (
            offsets(variant.man_steps, Color.WHITE),
            offsets(variant.man_steps, Color.BLACK),
        )
        self.man_capture_offsets = (
            offsets(variant.man_captures, Color.WHITE),
            offsets(variant.man_captures, Color.BLACK),
        )
        self.king_step_offsets = offsets(variant.king_steps, Color.WHITE)
        # Capture offsets split by sign, so whole-board tests can shift without a branch.
        self.man_capture_up = tuple(tuple(-o for o in offs if o < 0) for offs in self.man_capture_offsets)
        self.man_capture_down = tuple(tuple(o for o in offs if o > 0) for offs in self.man_capture_offsets)
        self.man_step_up = tuple(tuple(-o for o in offs if o < 0) for offs in self.man_step_offsets)
        self.man_step_down = tuple(tuple(o for o in offs if o > 0) for offs in self.man_step_offsets)
        self.king_capture_offsets = offsets(variant.king_captures, Color.WHITE)
        self.king_capture_up = tuple(-o for o in self.king_capture_offsets if o < 0)
        self.king_capture_down = tuple(o for o in self.king_capture_offsets if o > 0)
        # A capture needs a piece to jump and a square beyond it: shorter lines never capture.
        self.man_capture_rays = (
            rays(variant.man_captures, Color.WHITE, 2),
            rays(variant.man_captures, Color.BLACK, 2),
        )
        self.king_capture_rays = rays(variant.king_captures, Color.WHITE, 2)
        self.king_step_rays = rays(variant.king_steps, Color.WHITE)
        self.fill_steps = max(g.width, g.height)

    # ------------------------------------------------------------------ captures

    def captures(
        self, white: int, black: int, kings: int, turn: int, every_path: bool = False
    ) -> list[RawMove]:
        """Every legal capture of the side to move, after the variant's capture-choice rule.

        Two sequences with the same start, end and captured set are one move, unless ``every_path``
        (for perft counted the other way: one move per path)."""
        if turn == 0:
            own, opp = white, black
        else:
            own, opp = black, white
        occ = white | black
        empty = self.mask & ~occ
        men = own & ~kings
        own_kings = own & kings
        man_prey = opp if self.men_capture_kings else opp & ~kings
        # Cheap whole-board test first: which pieces have a capture at all.
        candidates = 0
        # A piece on bit i captures towards i + o when i + o holds prey and i + 2o is empty.
        for u in self.man_capture_up[turn]:
            candidates |= men & (man_prey << u) & (empty << (u + u))
        for d in self.man_capture_down[turn]:
            candidates |= men & (man_prey >> d) & (empty >> (d + d))
        if own_kings:
            if self.flying:
                candidates |= self._flying_capturers(own_kings, opp, empty)
            else:
                for u in self.king_capture_up:
                    candidates |= own_kings & (opp << u) & (empty << (u + u))
                for d in self.king_capture_down:
                    candidates |= own_kings & (opp >> d) & (empty >> (d + d))
        if not candidates:
            return []
        found: list[_Found] = []
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            self._capture_tree(low.bit_length() - 1, bool(low & kings), turn, occ ^ low, opp, kings, found)
        if self.majority and len(found) > 1:
            most = max(len(f[1]) for f in found)
            found = [f for f in found if len(f[1]) == most]
        if self.capture_filter is not None:
            found = self._apply_filter(found, kings, turn, own)
        if len(found) == 1:
            path, _, taken, crowned = found[0]
            return [(1 << path[0], 1 << path[-1], taken, crowned, path)]
        if every_path:
            return [(1 << path[0], 1 << path[-1], taken, crowned, path) for path, _, taken, crowned in found]
        unique: dict[tuple[int, int, int], RawMove] = {}
        for path, _, taken, crowned in found:
            key = (path[0], path[-1], taken)
            if key not in unique:
                unique[key] = (1 << path[0], 1 << path[-1], taken, crowned, path)
        return list(unique.values())

    def capture_paths(self, white: int, black: int, kings: int, turn: int, start: int) -> list[_Found]:
        """Every capture sequence of the piece on bit ``start``, each path separately (not merged).

        Notation may write any of the paths that make up one move; this lets a reader match them.
        """
        own, opp = (white, black) if turn == 0 else (black, white)
        if not (own >> start) & 1:
            return []
        found: list[_Found] = []
        self._capture_tree(
            start, bool((kings >> start) & 1), turn, (white | black) & ~(1 << start), opp, kings, found
        )
        return found

    def _apply_filter(self, found: list[_Found], kings: int, turn: int, own: int) -> list[_Found]:
        """Run the variant's capture-priority hook on the sequences found."""
        assert self.capture_filter is not None
        by_sequence: dict[CaptureSequence, _Found] = {}
        for f in found:
            path, caps, _, crowned = f
            seq = CaptureSequence(
                path=path,
                captured=caps,
                kings_captured=tuple(bool((kings >> v) & 1) for v in caps),
                by_king=bool((kings >> path[0]) & 1),
                crowned=crowned,
            )
            by_sequence[seq] = f
        return [by_sequence[s] for s in self.capture_filter(list(by_sequence))]

    def _flying_capturers(self, own_kings: int, opp: int, empty: int) -> int:
        """The kings, if any king can capture: slide over empties, meet an enemy, land beyond it.

        Kings are few, so finding that some king captures is enough; the search then tries each.
        """
        for o in self.king_capture_offsets:
            reach = frontier = own_kings
            for _ in range(self.fill_steps):
                frontier = _shift(frontier, o) & empty
                if not frontier:
                    break
                reach |= frontier
            if _shift(_shift(reach, o) & opp, o) & empty:
                return own_kings
        return 0

    def _capture_tree(
        self,
        start: int,
        is_king: bool,
        turn: int,
        occ: int,
        opp: int,
        kings: int,
        out: list[_Found],
    ) -> None:
        """Depth-first search of every maximal capture sequence of one piece.

        Captured pieces normally stay on the board (``occ``) until the move ends, so they block and
        cannot be jumped twice; with immediate removal (Turkish) they leave the board as they are jumped.
        """
        flying = self.flying
        promotion = self.promotion[turn]
        man_rays = self.man_capture_rays[turn]
        king_rays = self.king_capture_rays
        man_prey = opp if self.men_capture_kings else opp & ~kings
        ends_move = self.crowning_ends_move
        continues = self.crowning_continues
        immediate = self.immediate_removal
        no_reversal = self.no_reversal

        def search(
            sq: int,
            king: bool,
            taken: int,
            path: tuple[int, ...],
            caps: tuple[int, ...],
            occ: int,
            banned: int,
        ) -> None:
            extended = False
            if king and flying:
                for direction, ray in king_rays[sq]:
                    if direction == banned:
                        continue
                    n = 0
                    length = len(ray)
                    while n < length and not (occ >> ray[n]) & 1:
                        n += 1
                    if n >= length - 1:
                        continue
                    victim = ray[n]
                    if not (opp >> victim) & 1 or (taken >> victim) & 1:
                        continue
                    n += 1
                    vb = 1 << victim
                    after = occ & ~vb if immediate else occ
                    back = -direction if no_reversal else 0
                    first = len(out)
                    segments: list[list[_Found]] = []
                    depth = len(caps) + 1
                    while n < length and not (after >> ray[n]) & 1:
                        extended = True
                        land = ray[n]
                        mark = len(out)
                        search(land, True, taken | vb, path + (land,), caps + (victim,), after, back)
                        segments.append(out[mark:])
                        n += 1
                    # A king must stop where it can capture again, if there is such a square.
                    going_on = [seg for seg in segments if len(seg[0][1]) > depth]
                    if going_on and len(going_on) < len(segments):
                        del out[first:]
                        for seg in going_on:
                            out.extend(seg)
            else:
                prey = opp if king else man_prey
                for direction, ray in king_rays[sq] if king else man_rays[sq]:
                    victim, land = ray[0], ray[1]
                    if not (prey >> victim) & 1 or (taken >> victim) & 1 or (occ >> land) & 1:
                        continue
                    if direction == banned:
                        continue
                    extended = True
                    vb = 1 << victim
                    new_path, new_caps, new_taken = path + (land,), caps + (victim,), taken | vb
                    after = occ & ~vb if immediate else occ
                    back = -direction if no_reversal else 0
                    if not king and (promotion >> land) & 1:
                        if ends_move:
                            out.append((new_path, new_caps, new_taken, True))
                            continue
                        if continues:
                            search(land, True, new_taken, new_path, new_caps, after, back)
                            continue
                    search(land, king, new_taken, new_path, new_caps, after, back)
            if not extended and caps:
                crowned = (king and not is_king) or (not king and bool((promotion >> sq) & 1))
                out.append((path, caps, taken, crowned))

        search(start, is_king, 0, (start,), (), occ, 0)

    # ------------------------------------------------------------------ quiet moves

    def quiet_moves(self, white: int, black: int, kings: int, turn: int) -> list[RawMove]:
        own = white if turn == 0 else black
        empty = self.mask & ~(white | black)
        men = own & ~kings
        own_kings = own & kings
        promotion = self.promotion[turn]
        moves: list[RawMove] = []
        for o in self.man_step_offsets[turn]:
            targets = _shift(men, o) & empty
            while targets:
                tb = targets & -targets
                targets ^= tb
                fb = _shift(tb, -o)
                moves.append((fb, tb, 0, bool(tb & promotion), (fb.bit_length() - 1, tb.bit_length() - 1)))
        if own_kings:
            if self.flying:
                occ = white | black
                k = own_kings
                while k:
                    fb = k & -k
                    k ^= fb
                    f = fb.bit_length() - 1
                    for _, ray in self.king_step_rays[f]:
                        for t in ray:
                            if (occ >> t) & 1:
                                break
                            moves.append((fb, 1 << t, 0, False, (f, t)))
            else:
                for o in self.king_step_offsets:
                    targets = _shift(own_kings, o) & empty
                    while targets:
                        tb = targets & -targets
                        targets ^= tb
                        fb = _shift(tb, -o)
                        moves.append((fb, tb, 0, False, (fb.bit_length() - 1, tb.bit_length() - 1)))
        return moves

    def count_quiet_moves(self, white: int, black: int, kings: int, turn: int) -> int:
        """The number of quiet moves, counted on whole bitboards without listing them."""
        own = white if turn == 0 else black
        empty = self.mask & ~(white | black)
        men = own & ~kings
        n = 0
        for u in self.man_step_up[turn]:
            n += ((men >> u) & empty).bit_count()
        for d in self.man_step_down[turn]:
            n += ((men << d) & empty).bit_count()
        own_kings = own & kings
        if own_kings:
            if self.flying:
                for o in self.king_step_offsets:
                    frontier = _shift(own_kings, o) & empty
                    while frontier:
                        n += frontier.bit_count()
                        frontier = _shift(frontier, o) & empty
            else:
                for o in self.king_step_offsets:
                    n += (_shift(own_kings, o) & empty).bit_count()
        return n

    def quiet_move(self, white: int, black: int, kings: int, turn: int, fb: int, tb: int) -> RawMove | None:
        """The quiet move from the single bit ``fb`` to the single bit ``tb``, as ``quiet_moves`` lists
        it, if the piece there can make it (whether quiet moves are allowed at all is
        ``captures_and_quiet``'s answer). Checks one move instead of listing them all."""
        own = white if turn == 0 else black
        occ = white | black
        # Single bits: x & (x - 1) clears x's lowest bit, so it is 0 only for 0 and powers of two (never
        # for a negative x), and 0 is neither one of ``own`` nor an empty square.
        if fb & (fb - 1) or not fb & own or tb & (tb - 1) or not tb & self.mask & ~occ:
            return None
        f, t = fb.bit_length() - 1, tb.bit_length() - 1
        if not fb & kings:
            if t - f in self.man_step_offsets[turn]:
                return (fb, tb, 0, bool(tb & self.promotion[turn]), (f, t))
            return None
        if self.flying:
            for _, ray in self.king_step_rays[f]:
                for square in ray:
                    if square == t:
                        return (fb, tb, 0, False, (f, t))
                    if (occ >> square) & 1:
                        break
            return None
        return (fb, tb, 0, False, (f, t)) if t - f in self.king_step_offsets else None

    # ------------------------------------------------------------------ all moves

    def captures_and_quiet(self, white: int, black: int, kings: int, turn: int) -> tuple[list[RawMove], bool]:
        """The legal captures, and whether quiet moves are legal too: the legal moves are the captures
        followed, where quiet moves are legal, by ``quiet_moves``. A referee counts the quiet moves
        (``count_quiet_moves``) and checks the one it is given (``quiet_move``) without listing them."""
        caps = self.captures(white, black, kings, turn)
        return caps, not caps

    def legal_moves(self, white: int, black: int, kings: int, turn: int) -> list[RawMove]:
        caps = self.captures(white, black, kings, turn)
        return caps if caps else self.quiet_moves(white, black, kings, turn)

    def count_legal_moves(self, white: int, black: int, kings: int, turn: int) -> int:
        caps = self.captures(white, black, kings, turn)
        return len(caps) if caps else self.count_quiet_moves(white, black, kings, turn)


class KillerGenerator(MoveGenerator):
    """Killer draughts: a capture that ends by taking a king ends on the square right behind it.

    Applied to the sequences the plain search finds, so the other variants' search pays nothing."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.unit_steps = frozenset(self.king_capture_offsets)

    def _capture_tree(
        self,
        start: int,
        is_king: bool,
        turn: int,
        occ: int,
        opp: int,
        kings: int,
        out: list[_Found],
    ) -> None:
        first = len(out)
        super()._capture_tree(start, is_king, turn, occ, opp, kings, out)
        units = self.unit_steps
        # The last piece taken is a king: the landing square must be one step beyond it.
        out[first:] = [f for f in out[first:] if not (kings >> f[1][-1]) & 1 or f[0][-1] - f[1][-1] in units]


class OptionalCaptureGenerator(MoveGenerator):
    """Capturing is optional: the captures (by the variant's capture rules) and every quiet move."""

    def captures_and_quiet(self, white: int, black: int, kings: int, turn: int) -> tuple[list[RawMove], bool]:
        return self.captures(white, black, kings, turn), True

    def legal_moves(self, white: int, black: int, kings: int, turn: int) -> list[RawMove]:
        return self.captures(white, black, kings, turn) + self.quiet_moves(white, black, kings, turn)

    def count_legal_moves(self, white: int, black: int, kings: int, turn: int) -> int:
        captures = len(self.captures(white, black, kings, turn))
        return captures + self.count_quiet_moves(white, black, kings, turn)


class CrowningWinsGenerator(MoveGenerator):
    """Breakthrough: once a side has a king, the game is over, so its opponent has no move."""

    def captures_and_quiet(self, white: int, black: int, kings: int, turn: int) -> tuple[list[RawMove], bool]:
        if (black if turn == 0 else white) & kings:
            return [], False
        return super().captures_and_quiet(white, black, kings, turn)

    def legal_moves(self, white: int, black: int, kings: int, turn: int) -> list[RawMove]:
        if (black if turn == 0 else white) & kings:
            return []
        return super().legal_moves(white, black, kings, turn)

    def count_legal_moves(self, white: int, black: int, kings: int, turn: int) -> int:
        if (black if turn == 0 else white) & kings:
            return 0
        return super().count_legal_moves(white, black, kings, turn)


class _CrowningWinsOptionalCapture(CrowningWinsGenerator, OptionalCaptureGenerator):
    pass


class _KillerOptionalCapture(KillerGenerator, OptionalCaptureGenerator):
    pass


def generator_for(variant: Variant) -> MoveGenerator:
    """The move generator of a variant: killer's bounds where a king lands, breakthrough's stops the
    game at the first king, optional capture adds the quiet moves; the others' is the plain one,
    which pays for none of these."""
    if variant.killer:
        return _KillerOptionalCapture(variant) if variant.optional_capture else KillerGenerator(variant)
    if variant.crowning_wins and variant.optional_capture:
        return _CrowningWinsOptionalCapture(variant)
    if variant.crowning_wins:
        return CrowningWinsGenerator(variant)
    if variant.optional_capture:
        return OptionalCaptureGenerator(variant)
    return MoveGenerator(variant)


def apply_raw(white: int, black: int, kings: int, turn: int, move: RawMove) -> tuple[int, int, int]:
    """The bitboards after ``move``; the side to move then passes to the opponent."""
    fb, tb, cm, crowns, _ = move
    if turn == 0:
        white = (white & ~fb) | tb
        black &= ~cm
    else:
        black = (black & ~fb) | tb
        white &= ~cm
    # Captured pieces leave first: a Turkish king may end its move where it took a piece earlier.
    if kings & fb:
        return white, black, (kings & ~cm & ~fb) | tb
    if crowns:
        return white, black, (kings & ~cm) | tb
    return white, black, kings & ~cm


def mules_after(mules: int, move: RawMove) -> int:
    """The mules (Mule checkers) once ``move`` is played: a mule moves with its mark (lost if it is
    crowned), and captured mules leave the board."""
    start, end, captured, crowns, _ = move
    mules &= ~captured
    if mules & start:
        mules = (mules & ~start) | (0 if crowns else end)
    return mules
