// Front door of taker/: the taker's pages: the home, an attempt, its offline answer queue.
// What other folders may use; nothing else of this folder is imported from outside.
export { answerStore } from './answerSync';
export { AttemptPage } from './AttemptPage';
export { TakerHome, TestCard } from './TakerHome';
