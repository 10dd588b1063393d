// Front door of admin/shared/: the parts every admin page uses, each written once.
export { Pager } from './Pager';
