"""Words any newcomer reads without a glossary: a screen may show these without explaining
them (`support.terms_scan`). A word of a game's own belongs in its terms instead
(`tui/games/<game_id>/terms.py`), with its meaning."""

PLAIN = frozenset("""
a all and another are as ask asked at be below by can cannot chat connected down each end
every face first for from game games has have hidden holds in is it its left lost more
no nobody not now of off on one or own past pick player players press role roles see
starts stay team teams the this to type until watch what where who wins with won yet you
your
cut cuts found log fine true spectating spectator hands made goes last evening some colour
fourth draws next takes never moves two row vote votes voting learned waiting they revealed
win loses right turn use decline choose places visible tomorrow begins stand up moves gains
move paying refilled chat… most after choice take pay nothing gain digit later then opponent
may buy ahead points free least secret than half approving sends before ends hold count none
once cancel laid target shortens that was sent if keep knows which but gone good bad helps
those whom think still were shuffled again anything went even new clues checks needs cutting
whoever say comes so brings closer proved false makes find unless lies truly could take
counts names must their longer power panel says same size trust proposals far stays sends
stops look how picks everyone plays cards gives digit arrows sit yourself card ever learns
score begin someone wants was scores fewer surer know over talk acted like days put their
gather value minus other only shown place full lists choices costs worth show there day go
stands tie per draw valued took equal into many stole them unseen lead team's
best chance risk happens keeping holder hide marks would an lay out colours nearest exploding
leave arming dangerous round leads him evade start shows rows small enough harmless likely
suspect fear perhaps help holding give point showing name rule likeliest escape backing such
his others share suspicion cancels here nearly objects play both sides alike either differ
about reckoning yours nor cost does sets theirs already paid miss frees expected gets swap
beside spends stop steal london unplaced
""".split())
