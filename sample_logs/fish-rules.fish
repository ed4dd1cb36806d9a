Title: Fish rules: claims at any time, and a wrong claim goes to the other team
Rules: fish
Deck: standard
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: JC 2S 7S 10S JS 9H 2D QD
Hand Dev: 7H 3S QS 10H 3D 10D JD 2C
Hand Ben: 5H 9C 10C KS AH 6D 3C 4C
Hand Eli: 4S 5S 9S JH QH 4D 9D 5C
Hand Cara: 6H QC KC AC AS 7D KD 6C
Hand Fay: 2H 3H 4H 6S KH 5D AD 7C

1. Anna asks Dev for 9S: no
2. Dev asks Ben for 5H: yes
3. Dev asks Cara for 6H: yes  # Dev shows 5H and 6H; he held a low heart before event 2
4. Dev asks Ben for 9D: no  # the turn goes to Ben
# Fay holds 2H 3H 4H. Dev's first low heart was not 5H or 6H (he asked for them) nor one of
# Fay's, so it is 7H: in Fay's view the whole book is known and all on her side.
5. Fay claims low-hearts: Dev 5H 6H 7H, Fay 2H 3H 4H: correct  # on Ben's turn: under fish rules anyone may claim at any time
6. Ben claims high-clubs: Ben 9C 10C, Anna JC QC, Cara KC AC: wrong; actual Ben 9C 10C, Anna JC, Cara QC KC AC  # every card was in Ben's team but the split is wrong: under fish rules the other team scores it (literature would forfeit it)
7. Ben asks Fay for 5D: yes  # claims do not move the turn: Ben is still on turn
8. Ben asks Eli for 2D: no
