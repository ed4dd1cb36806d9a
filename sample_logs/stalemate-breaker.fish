Title: The stalemate breaker: a kept book buys the turn for a stuck teammate
Rules: literature
Deck: standard
House: next-asker
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: JD 2S 3S 9S 10S 9H 2D 2C
Hand Dev: AD 7H 4S JS 10H 3D 3C 9C
Hand Ben: 2H 3H 4H 5H 6H 5S 4D 10C
Hand Eli: QD 6S QS JH QH 5D 4C JC
Hand Cara: 9D 10D 7S KS KH 6D 5C QC
Hand Fay: KD AS AH 7D 6C 7C KC AC

1. Anna asks Fay for 10D: no  # Anna holds a high diamond
2. Fay asks Cara for 2C: no
3. Cara asks Eli for QD: yes
4. Cara asks Fay for KD: yes
5. Cara asks Dev for AD: yes
# Cara holds 9D 10D QD KD AD. Anna's high diamond at event 1 was not 10D (asked), not QD, KD
# or AD (still with Eli, Fay and Dev then) and not 9D (Cara's): it is JD. Cara knows the whole
# book is in her team and who holds each card, and does not claim it yet: a stalemate breaker.
6. Cara asks Dev for QS: no
7. Dev asks Anna for 2H: no  # Dev holds a low heart; Ben holds 2H to 6H, so in Ben's view Dev has 7H
# Ben could take 7H and claim low hearts, but a player only asks on their own turn.
8. Anna asks Eli for 7D: no
9. Eli asks Cara for AH: no  # the turn comes to Cara, not to Ben
10. Cara claims high-diamonds: Cara 9D 10D QD KD AD, Anna JD: correct  # the kept book is spent now
11. Cara passes to Ben  # house rule next-asker: after a claim the team names who asks next
12. Ben asks Dev for 7H: yes
13. Ben claims low-hearts: Ben 2H 3H 4H 5H 6H 7H: correct
