Title: Ranks deck: thirteen books of four cards of one rank
Rules: literature
Deck: ranks
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: 2S 3D 5S 6D 8S 9D JS QD AD
Hand Dev: KD 2H 3C 5H 6C 8H 9C JH QC
Hand Ben: KS KH 2D 4S 5D 7S 8D 10S JD
Hand Eli: 2C 4H 5C 7H 8C 10H JC AS AC
Hand Cara: KC 3S 4D 6S 7D 9S 10D QS
Hand Fay: 3H 4C 6H 7C 9H 10C QH AH

# 52 cards to 6 players: Anna, Dev, Ben and Eli get 9, Cara and Fay 8.
1. Ben asks Dev for KD: yes  # to ask for a king Ben must hold a king
2. Ben asks Eli for KC: no
3. Eli asks Cara for 2H: no
4. Cara asks Fay for KS: no  # Cara holds a king that is not KS
# Ben holds KS KH KD, so Cara's king can only be KC.
5. Fay asks Ben for 3S: no
6. Ben claims kings: Ben KS KH KD, Cara KC: correct
