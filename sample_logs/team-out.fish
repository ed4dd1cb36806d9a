Title: A whole team runs out: the endgame, played to the last book
Event: Sample records
Notes: complete game, ends in a 4-4 tie
Rules: literature
Deck: standard
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: 5S 6S 7S 10S JS QS KS AS
Hand Dev: 2D 3D 4D 5D 6D 7D 9S 9H
Hand Ben: 2H 3H 4H 5H 6H 2S 3S 4S
Hand Eli: 9D 10D JD QD KD AD 7H 10H
Hand Cara: JH QH KH AH 10C JC QC KC
Hand Fay: 2C 3C 4C 5C 6C 7C 9C AC

1. Eli asks Ben for 2H: yes  # Eli holds a low heart
2. Eli asks Ben for 3H: yes
3. Eli asks Ben for 4H: yes
4. Eli asks Ben for 5H: yes
5. Eli asks Ben for 6H: yes
6. Eli claims low-hearts: Eli 2H 3H 4H 5H 6H 7H: correct
7. Eli claims high-diamonds: Eli 9D 10D JD QD KD AD: correct  # Eli keeps only 10H
8. Eli asks Cara for 9H: no
9. Cara asks Eli for 10H: yes  # Eli asked for 9H holding a high heart; Cara has JH to AH, so it was 10H
# Eli is out of cards, but not on his turn: he simply stops asking and being asked.
10. Cara asks Dev for 9H: yes
11. Cara asks Fay for 9C: yes
12. Cara asks Fay for AC: yes
13. Cara claims high-clubs: Cara 9C 10C JC QC KC AC: correct
14. Cara claims high-hearts: Cara 9H 10H JH QH KH AH: correct  # she holds only whole books, so she claims rather than ask
15. Cara passes to Anna  # out of cards after her claims, Cara hands the turn on
16. Anna asks Dev for 9S: yes  # Anna now holds all six high spades and keeps them for now
17. Anna asks Fay for 2S: no
18. Fay claims low-clubs: Fay 2C 3C 4C 5C 6C 7C: correct
19. Fay passes to Dev
20. Dev claims low-diamonds: Dev 2D 3D 4D 5D 6D 7D: correct  # Dev, Eli and Fay have no cards left
# The whole team is out on its own turn, so Dev names an opponent with cards to make every
# remaining claim; he names Anna. Counting is enough now: only Anna (9 cards) and Ben (3) hold
# cards, so Ben's three are the low spades Anna lacks.
21. Anna claims low-spades: Anna 5S 6S 7S, Ben 2S 3S 4S: correct
22. Anna claims high-spades: Anna 9S 10S JS QS KS AS: correct  # the last book: 4 books each, a tie
