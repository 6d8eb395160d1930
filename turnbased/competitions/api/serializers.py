"""The API's shapes of competitions."""

from __future__ import annotations

from rest_framework import serializers

from turnbased.clocks.shapes import TimeControlRequestSerializer
from turnbased.competitions import rules
from turnbased.competitions.models import (
    ByePolicy, CompetitionStatus, DeadlinePolicy, EntrantStatus, EntryKind, Format, RoundStatus, TableStatus,
    AGREEMENT_KINDS, TakebackPolicy,
)
from turnbased.competitions.scoring import TieBreak
from turnbased.entry.api.serializers import RequirementsSerializer
from turnbased.kit.api.input import BodySerializer, game_slugs
from turnbased.kit.api.pagination import page_of


class StageInputSerializer(BodySerializer):
    format = serializers.ChoiceField(choices=Format.choices, required=False,
                                     help_text="round_robin: every table of each pool; swiss: by score, no pair twice "
                                               "where avoidable; elimination (two players: a bracket; more: the top "
                                               "`advance` of each table go on); double_elimination (two players).")
    rounds = serializers.IntegerField(required=False, min_value=1, max_value=rules.MAX_SWISS_ROUNDS,
                                      help_text="Swiss: how many rounds (5). Round robin: how many times each pool's "
                                                "tables are played (1).")
    pool_size = serializers.IntegerField(required=False, min_value=0, max_value=64,
                                         help_text="Round robin: players per pool; 0, one pool of everyone (with "
                                                   "more than two at a table, tables of that size).")
    sequential = serializers.BooleanField(required=False,
                                          help_text="Round robin: a round's tables start only when every table of "
                                                    "the round before has finished (false: all at once).")
    duplicate = serializers.BooleanField(
        required=False, help_text="Every table of a round deals the same cards (one seed a round, committed to when "
                                  "it is paired and shown when it closes); each game is seen by its own players "
                                  "alone, and its result counts, when the round closes; the seats are then compared "
                                  "across tables. Swiss, elimination, or a sequential round robin (false).")
    advance = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                       help_text="How many go on to the next stage: of each pool (round robin), of "
                                                 "the stage (Swiss); multi-player elimination: of each table. Left "
                                                 "out on the last stage.")

    class Meta:
        ref_name = "CompetitionStageRequest"


class LeagueInputSerializer(BodySerializer):
    division_size = serializers.IntegerField(required=False, min_value=2, max_value=rules.MAX_DIVISION,
                                             help_text="Players in a division (two-player games: 3 to 64, 8 by "
                                                       "default; larger tables: the table size to two more).")
    movers = serializers.IntegerField(required=False, min_value=1, max_value=rules.MAX_DIVISION // 2,
                                      help_text="How many go up and down between neighbouring divisions at a "
                                                "season's end (at most half a division).")
    break_days = serializers.IntegerField(required=False, min_value=1, max_value=rules.MAX_BREAK_DAYS,
                                          help_text="Days between a season's end and the next one's start (7), "
                                                    "in which the next one takes newcomers.")

    class Meta:
        ref_name = "LeagueRequest"


class LeagueSerializer(serializers.Serializer):
    division_size = serializers.IntegerField()
    movers = serializers.IntegerField()
    break_days = serializers.IntegerField()

    class Meta:
        ref_name = "League"


class LadderInputSerializer(BodySerializer):
    reach = serializers.IntegerField(required=False, min_value=1, max_value=rules.MAX_REACH,
                                     help_text="How many places above one's own a player may challenge (3).")
    open_challenges = serializers.IntegerField(required=False, min_value=1, max_value=rules.MAX_OPEN_CHALLENGES,
                                               help_text="How many challenges a player may have in play at once (2).")
    cooldown_days = serializers.IntegerField(required=False, min_value=0, max_value=rules.MAX_COOLDOWN_DAYS,
                                             help_text="Days before the same two may meet again (7).")
    days = serializers.IntegerField(required=False, min_value=rules.MIN_LADDER_DAYS, max_value=rules.MAX_LADDER_DAYS,
                                    help_text="Days the ladder runs from its start (90); its games still going then "
                                              "are settled by the deadline policy.")

    class Meta:
        ref_name = "LadderRequest"


class LadderSerializer(serializers.Serializer):
    reach = serializers.IntegerField()
    open_challenges = serializers.IntegerField()
    cooldown_days = serializers.IntegerField()
    days = serializers.IntegerField()

    class Meta:
        ref_name = "Ladder"


class CompetitionInputSerializer(BodySerializer):
    name = serializers.CharField(min_length=rules.NAME_MIN, max_length=rules.NAME_MAX, trim_whitespace=False)
    description = serializers.CharField(required=False, allow_blank=True, max_length=rules.DESCRIPTION_MAX,
                                        trim_whitespace=False)
    game = serializers.ChoiceField(choices=game_slugs(), help_text="The game every table plays.")
    table_size = serializers.IntegerField(required=False, min_value=2, max_value=10,
                                          help_text="Players at a table (the game's default). Where the game takes "
                                                    "one fewer, tables of one fewer seat everyone.")
    options = serializers.DictField(required=False, help_text="The game's options, as a table takes them.")
    time_control = TimeControlRequestSerializer(help_text="The clock of every game, as a table takes it. A "
                                                          "competition has one unless no_clock is set.")
    no_clock = serializers.BooleanField(required=False, help_text="Run without a clock (time_control kind none): "
                                                                  "then only a round's deadline ends a game.")
    entry = serializers.ChoiceField(choices=EntryKind.choices, required=False,
                                    help_text="open (the default), group (its members), invitation.")
    group = serializers.IntegerField(required=False, allow_null=True, help_text="The group, for entry: group.")
    requirements = RequirementsSerializer(required=False,
                                          help_text="Fair entry's requirements, as a table takes them; checked at "
                                                    "entry and again a day before the start.")
    min_entrants = serializers.IntegerField(required=False, min_value=2, max_value=rules.MAX_ENTRANTS)
    max_entrants = serializers.IntegerField(required=False, allow_null=True, min_value=2, max_value=rules.MAX_ENTRANTS)
    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    start_when_full = serializers.BooleanField(required=False)
    late_entry_rounds = serializers.IntegerField(required=False, min_value=0, max_value=rules.MAX_SWISS_ROUNDS,
                                                 help_text="A Swiss first stage takes entries while fewer of its "
                                                           "rounds than this are paired.")
    rated = serializers.BooleanField(required=False, help_text="Whether its games count for ratings (an open "
                                                               "competition's; true by default).")
    points = serializers.DictField(child=serializers.ListField(child=serializers.FloatField()), required=False,
                                   help_text='Points per place by table size, where not the defaults '
                                             '({"3": [5, 2, 0]}).')
    bye_policy = serializers.ChoiceField(choices=ByePolicy.choices, required=False)
    bye_points = serializers.FloatField(required=False, min_value=0, max_value=1000)
    tiebreaks = serializers.ListField(child=serializers.ChoiceField(choices=[tiebreak.value for tiebreak in TieBreak]),
                                      required=False, help_text="Tie-breaks in order.")
    deadline_policy = serializers.ChoiceField(choices=DeadlinePolicy.choices, required=False)
    takebacks = serializers.ChoiceField(choices=TakebackPolicy.choices, required=False,
                                        help_text="Whether its players may take a move back by consent, and whether "
                                                  "bots agree (`people`: they may, bots never agree; the default).")
    agreements = serializers.ListField(
        child=serializers.ChoiceField(choices=AGREEMENT_KINDS), required=False,
        help_text="What its players may agree to by vote at their tables (default: all of pause, extra_time and draw; "
                  "a draw where the game knows a shared result). A competition's game is never cancelled. Bots agree "
                  "to a draw as `takebacks` says for takebacks.")
    round_days = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=rules.MAX_ROUND_DAYS,
                                          help_text="Days a round lasts before its deadline; left out, estimated from "
                                                    "the clock.")
    stages = StageInputSerializer(many=True, required=False, help_text="1 to 4 stages, played in order.")
    ladder = LadderInputSerializer(required=False, allow_null=True,
                                   help_text="Make it a ladder (two players): no rounds, a player challenges one of "
                                             "the places above, the winner of a challenge taking the defender's "
                                             "place (then it has no stages).")
    league = LeagueInputSerializer(required=False, allow_null=True,
                                   help_text="Make it a league: seasons one after another, each a round robin in "
                                             "divisions, promotion and relegation between them (then its one stage "
                                             "is a round robin, by default two cycles with two players, else one).")

    class Meta:
        ref_name = "CompetitionRequest"


class StageSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    format = serializers.ChoiceField(choices=Format.choices)
    rounds = serializers.IntegerField()
    pool_size = serializers.IntegerField()
    sequential = serializers.BooleanField()
    duplicate = serializers.BooleanField(help_text="Every table of a round deals the same cards.")
    advance = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(help_text="waiting, running or finished.")

    class Meta:
        ref_name = "CompetitionStage"


class CompetitionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    organiser = serializers.CharField()
    game = serializers.CharField()
    table_size = serializers.IntegerField()
    options = serializers.DictField()
    time_control = serializers.DictField()
    entry = serializers.ChoiceField(choices=EntryKind.choices)
    group = serializers.IntegerField(allow_null=True)
    requirements = serializers.DictField()
    min_entrants = serializers.IntegerField()
    max_entrants = serializers.IntegerField(allow_null=True)
    entrant_count = serializers.IntegerField()
    starts_at = serializers.DateTimeField(allow_null=True)
    start_when_full = serializers.BooleanField()
    late_entry_rounds = serializers.IntegerField()
    rated = serializers.BooleanField()
    points = serializers.DictField(help_text="Points per place by table size, the defaults included.")
    bye_policy = serializers.ChoiceField(choices=ByePolicy.choices)
    bye_points = serializers.FloatField(help_text="What a bye scores.")
    tiebreaks = serializers.ListField(child=serializers.CharField())
    deadline_policy = serializers.ChoiceField(choices=DeadlinePolicy.choices)
    takebacks = serializers.ChoiceField(choices=TakebackPolicy.choices)
    agreements = serializers.ListField(child=serializers.ChoiceField(choices=AGREEMENT_KINDS),
                                       help_text="What its players may agree to by vote at their tables.")
    round_days = serializers.IntegerField(help_text="Days each round lasts before its deadline.")
    round_days_estimated = serializers.BooleanField(help_text="Whether round_days was estimated from the clock.")
    status = serializers.ChoiceField(choices=CompetitionStatus.choices)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    stages = StageSerializer(many=True)
    ladder = LadderSerializer(allow_null=True, help_text="A ladder's settings; null for no ladder.")
    league = LeagueSerializer(allow_null=True, help_text="A league's settings; null for a competition that is no "
                                                         "league's season.")
    season = serializers.IntegerField(help_text="Which season of its league this is (1, 2, ...); 0 for no league.")
    previous_season = serializers.IntegerField(allow_null=True, help_text="The league's season before this one.")
    next_season = serializers.IntegerField(allow_null=True, help_text="The league's season after this one, once "
                                                                      "this one has ended.")
    my_entry = serializers.CharField(allow_null=True, help_text="My entry: active, withdrawn or eliminated; null "
                                                                "when I have none.")
    url = serializers.URLField(help_text="The competition's page.")

    class Meta:
        ref_name = "Competition"


class CompetitionDetailSerializer(CompetitionSerializer):
    may_enter = serializers.BooleanField(help_text="Whether I may enter now.")
    entry_refusal = serializers.CharField(allow_null=True, help_text="Why I may not enter now, in my language "
                                                                     "(null when I may, or have entered).")

    class Meta:
        ref_name = "CompetitionDetail"


class EntrantSerializer(serializers.Serializer):
    username = serializers.CharField()
    status = serializers.ChoiceField(choices=EntrantStatus.choices)
    withdrawn_because = serializers.CharField(help_text="Why they were withdrawn: themselves, timeout, requirements "
                                                        "or organiser; empty while they play.")
    seed = serializers.IntegerField(allow_null=True)
    entered_at = serializers.DateTimeField()

    class Meta:
        ref_name = "CompetitionEntrant"


class StandingRowSerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="Shared by entrants tied on points and every tie-break.")
    username = serializers.CharField()
    status = serializers.ChoiceField(choices=EntrantStatus.choices)
    pool = serializers.IntegerField()
    points = serializers.FloatField()
    games = serializers.IntegerField()
    byes = serializers.IntegerField()
    move = serializers.CharField(help_text="A league's season: how its player came into their division: up "
                                           "(promoted), down (relegated), stay, or new; empty for no league.")
    tiebreaks = serializers.DictField(child=serializers.FloatField(),
                                      help_text="Each tie-break's figure, by its name (head_to_head is worked out "
                                                "only among tied entrants and not listed).")

    class Meta:
        ref_name = "CompetitionStanding"


class StageStandingsSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    format = serializers.ChoiceField(choices=Format.choices)
    final = serializers.BooleanField(help_text="Whether the stage is over and these are its places.")
    rows = StandingRowSerializer(many=True)

    class Meta:
        ref_name = "CompetitionStageStandings"


class StandingsSerializer(serializers.Serializer):
    stages = StageStandingsSerializer(many=True)

    class Meta:
        ref_name = "CompetitionStandings"


class PlacementSerializer(serializers.Serializer):
    username = serializers.CharField()
    seat = serializers.IntegerField(help_text="The seat they held, from 0.")
    place = serializers.IntegerField()
    points = serializers.FloatField()
    score = serializers.FloatField(allow_null=True, help_text="Their score in the game, where it has one (null for a "
                                                              "game stopped with every player losing).")

    class Meta:
        ref_name = "CompetitionPlacement"


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    pool = serializers.IntegerField()
    match = serializers.CharField(help_text="The bracket's match it plays (elimination), else empty.")
    game = serializers.IntegerField(allow_null=True, help_text="Its game (GET /api/games/{id}/); null until made.")
    players = serializers.ListField(child=serializers.CharField(), help_text="Usernames in seat order.")
    status = serializers.ChoiceField(choices=TableStatus.choices)
    settled = serializers.CharField(
        help_text="How it ended if not played to its end: played_out (by bots at the round's deadline), adjudicated "
                  "(stopped at the deadline and decided on the count every player could see), all_lost (stopped at "
                  "the deadline, every player losing), abandoned (stopped, every player losing, as everyone left at "
                  "it had withdrawn) or withdrawn (not played: a player had withdrawn); empty when played to its end.")
    challenger = serializers.CharField(allow_null=True, help_text="A ladder's challenge: who challenged; null at "
                                                                  "any other table.")
    placements = PlacementSerializer(many=True, help_text="Once finished: each player's place and points.")

    class Meta:
        ref_name = "CompetitionTable"


class RoundCommitmentSerializer(serializers.Serializer):
    scheme = serializers.CharField(help_text="turnbased-round-commitment/1")
    algorithm = serializers.CharField(help_text="sha256")
    value = serializers.CharField(help_text="The hash, in hex.")

    class Meta:
        ref_name = "CompetitionRoundCommitment"


class SeatHolderSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    username = serializers.CharField()
    place = serializers.IntegerField()
    points = serializers.FloatField()
    score = serializers.FloatField(allow_null=True)

    class Meta:
        ref_name = "CompetitionSeatHolder"


class SeatComparedSerializer(serializers.Serializer):
    players = serializers.IntegerField(help_text="The size of the tables compared (a table one short is dealt "
                                                 "differently).")
    seat = serializers.IntegerField(help_text="The seat, from 1.")
    rows = SeatHolderSerializer(many=True, help_text="Everyone who held the seat, best first (a better place, then a "
                                                     "higher score).")

    class Meta:
        ref_name = "CompetitionSeatCompared"


class RoundSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=RoundStatus.choices)
    deadline = serializers.DateTimeField(allow_null=True)
    opened_at = serializers.DateTimeField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)
    tables = TableSerializer(many=True)
    byes = serializers.ListField(child=serializers.CharField(), help_text="Who sat the round out, scoring a bye.")
    duplicate = serializers.BooleanField(help_text="Every table of the round deals from one seed. Until the round "
                                                   "closes its tables read as playing, with no placements, and each "
                                                   "game is seen by its own players alone.")
    commitment = RoundCommitmentSerializer(allow_null=True, help_text="A duplicate round's commitment to its seed, "
                                                                      "published when it is paired; null otherwise.")
    seed = serializers.CharField(allow_null=True, help_text="A duplicate round's seed once it has closed (check it: "
                                                            "docs/record-format.md); null before, and otherwise.")
    comparison = SeatComparedSerializer(many=True, allow_null=True, help_text="A closed duplicate round's seats "
                                                                             "compared across its tables; null "
                                                                             "otherwise.")

    class Meta:
        ref_name = "CompetitionRound"


class RoundsSerializer(serializers.Serializer):
    rounds = RoundSerializer(many=True)

    class Meta:
        ref_name = "CompetitionRounds"


class ChallengeSerializer(BodySerializer):
    username = serializers.CharField(max_length=150, help_text="The player challenged: one of the places above "
                                                               "mine on the ladder.")

    class Meta:
        ref_name = "ChallengeRequest"


class PersonSerializer(BodySerializer):
    username = serializers.CharField(max_length=150, trim_whitespace=True,
                                     help_text="The player's username (any case).")

    class Meta:
        ref_name = "CompetitionPersonRequest"


class EntrySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=EntrantStatus.choices)

    class Meta:
        ref_name = "CompetitionEntry"


CompetitionListSerializer = page_of("CompetitionList", CompetitionSerializer,
                                    description="Competitions, the newest first.")
EntrantListSerializer = page_of("CompetitionEntrantList", EntrantSerializer, description="Entrants, in seed order "
                                                                                          "(entry order before the "
                                                                                          "start).")
